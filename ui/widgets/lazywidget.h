#pragma once

#include <QWidget>

#include <functional>

namespace napkin::ui {

/// A place for a view that is built the first time it is shown or asked for: a page or tab
/// nobody opens costs nothing at start-up. The content fills the place, and its size policy,
/// hints and minimum size become the place's.
class LazyWidget final : public QWidget
{
    Q_OBJECT

public:
    using Factory = std::function<QWidget *(QWidget *parent)>;
    explicit LazyWidget(Factory factory, QWidget *parent = nullptr);

    /// The content, built by the factory on the first call.
    QWidget *content();
    bool isBuilt() const { return m_content != nullptr; }

signals:
    /// Emitted once, right after the factory has built the content.
    void built(QWidget *content);

protected:
    void showEvent(QShowEvent *event) override;

private:
    Factory m_factory;
    QWidget *m_content = nullptr;
};

} // namespace napkin::ui
