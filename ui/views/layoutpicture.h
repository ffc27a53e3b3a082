#pragma once

#include "core/report/report.h"

#include <QWidget>

#include <optional>

namespace napkin::ui {

/// The GPUs of one data-parallel replica drawn as a grid: a row per pipeline stage, in it the
/// context-parallel groups, in each the tensor-parallel ranks; colour by stage, shade by CP
/// rank, a frame around each TP group, node boundaries as gaps. The text says how many times
/// the replica repeats (DP) and whether each group stays inside a node. Readable for 8 GPUs
/// and meaningful for 16,384: one replica and its count.
class LayoutPicture final : public QWidget
{
    Q_OBJECT

public:
    explicit LayoutPicture(QWidget *parent = nullptr);
    void setReport(const Report &report);
    /// The sentence under the grid, as drawn.
    QString caption() const { return m_caption; }
    /// The title, as drawn.
    QString title() const { return m_title; }
    /// Where the title, the grid and the caption are drawn at the current size: the title and
    /// the caption take the lines they wrap to, the grid the rest.
    struct Boxes {
        QRect title;
        QRect grid;
        QRect caption;
    };
    Boxes boxes() const;

    QSize minimumSizeHint() const override;
    QSize sizeHint() const override;

protected:
    void paintEvent(QPaintEvent *event) override;

private:
    std::optional<Report> m_report;
    QString m_title;
    QString m_caption;
};

/// "TP groups of 8 inside one node (8 GPUs per node); CP groups ... ": where each group runs.
QString groupPlacementText(const Layout &layout);

} // namespace napkin::ui
