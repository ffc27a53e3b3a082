#pragma once

#include "core/report/report.h"
#include "core/model/scenario.h"

#include <QWidget>

#include <cstdint>
#include <optional>

class QCheckBox;
class QComboBox;
class QDoubleSpinBox;
class QFormLayout;

namespace napkin::ui {

class FieldControls;
class ScenarioController;
class TextStrip;

/// The cluster and its parallel layout: GPUs per node, the network between nodes, TP, SP, PP,
/// virtual stages, CP, EP and the capacity factor (Mixture-of-Experts only) and the global batch, with DP, micro-batches and gradient accumulation
/// shown as what follows from them, and which time basis the run uses. Each chooser lists its
/// usual values; the ones the scenario cannot take are greyed with the rule that forbids them
/// as their tooltip ("why not"), so an invalid layout cannot be chosen here. Those choosers and
/// the network's (the interconnect catalog) are hand-built, with their label and tooltip from
/// the field table; sequence parallelism, the capacity factor, the overlap and the time basis
/// are plain controls generated from it (FieldControls).
class LayoutControls final : public QWidget
{
    Q_OBJECT

public:
    explicit LayoutControls(ScenarioController *controller, QWidget *parent = nullptr);

    enum class Choice { Tp, Pp, Vpp, Cp, GlobalBatch, GpusPerNode, Ep, Etp };
    QComboBox *chooser(Choice c) const;
    QCheckBox *sequenceParallel() const { return m_sp; }
    QComboBox *interconnect() const { return m_interconnect; }
    QComboBox *timeBasis() const { return m_timeBasis; }
    QDoubleSpinBox *capacityFactor() const { return m_capacity; }
    QCheckBox *epOverlap() const { return m_epOverlap; }
    QCheckBox *dpOverlap() const { return m_dpOverlap; }
    QCheckBox *tpOverlap() const { return m_tpOverlap; }
    /// "DP 2 · 64 micro-batches of 1 per step (gradient accumulation 64) · 1.05M tokens per step"
    TextStrip *derived() const { return m_derived; }

protected:
    void showEvent(QShowEvent *event) override;

private:
    /// Rebuilds the choosers when a field they depend on changed (nothing while hidden).
    void sync(const Scenario &s);
    // sync()'s parts: the model's splits, the experts' row, the global batch, the node and network.
    void offerSplits(const Scenario &s);
    void offerExperts(const Scenario &s, std::int64_t dp);
    void offerGlobalBatch(const Scenario &s, std::int64_t dp);
    void syncNode(const Scenario &s);
    /// Training's rows hidden in inference mode.
    void showModeRows(const Scenario &s);
    /// Sets how one choice writes its value (nullopt: leaves the field unset, derived).
    using Setter = void (*)(Scenario &, std::optional<std::int64_t>);
    /// Fills one chooser: `unsetLabel` (when not empty) first, then `values`, each standing for
    /// `s` with that value; `current` is selected.
    void offer(const Scenario &s, Choice which, const QString &unsetLabel, const QList<std::int64_t> &values,
               std::optional<std::int64_t> current, Setter set);
    void showDerived(const Report &r);
    /// Sets a chooser's items (and what each stands for), greying those the scenario cannot take.
    void fill(Choice which, const QList<std::pair<QString, Scenario>> &options, int current);

    ScenarioController *m_controller;
    FieldControls *m_fields;
    QComboBox *m_tp;
    QComboBox *m_pp;
    QComboBox *m_vpp;
    QComboBox *m_cp;
    QComboBox *m_globalBatch;
    QComboBox *m_gpusPerNode;
    QComboBox *m_ep;
    QComboBox *m_etp;
    QDoubleSpinBox *m_capacity = nullptr;
    QCheckBox *m_epOverlap = nullptr;
    QWidget *m_epNodeLimit = nullptr;
    QWidget *m_ppSchedule = nullptr;  ///< the pipeline schedule (training only)
    QCheckBox *m_dpOverlap = nullptr;
    QCheckBox *m_gradFusion = nullptr;
    QCheckBox *m_tpOverlap = nullptr;
    QFormLayout *m_form;
    QComboBox *m_interconnect;
    QComboBox *m_timeBasis = nullptr;
    QCheckBox *m_sp = nullptr;
    TextStrip *m_derived;
    QString m_syncedKey;  ///< what the choosers were last built for
    QList<Scenario> m_options[static_cast<int>(Choice::Etp) + 1];  ///< what each chooser's items stand for, in Choice order
    bool m_syncing = false;
};

} // namespace napkin::ui
