// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 KernelForge authors
#pragma once

#include "core/servebench/benchrun.h"
#include "core/servebench/referenceresults.h"

#include <QWidget>

#include <optional>

class QComboBox;
class QLabel;
class QTableWidget;

namespace kf {

class SweepChart;

// What a serving-benchmark run measured, or two runs side by side: a header (server,
// workload, status, the context it ran in; for two runs what differs between them), the
// Pareto chart (the y throughput chosen above it, per GPU by default, against per-user tok/s
// or a latency, with the goodput frontier), a table with a column per level and a row per
// metric of benchMetrics() (for two runs: A, B and the change, coloured only where it lies
// outside the runs' spread: compareMetric()), the notes a reader needs (estimated token counts,
// failures with their reasons, saturation, the server's own token count disagreeing, other
// load, cancelled levels, missing GPU samples) and the published results that match the
// workload, with how their figures are normalised. Shows what it is given; loads nothing.
class BenchResultView : public QWidget
{
    Q_OBJECT
public:
    explicit BenchResultView(QWidget* parent = nullptr);

    // A run, live (levels so far) or stored; refs: the reference table (none: not shown).
    void showRun(const BenchRun& run, const std::optional<ReferenceTable>& refs);
    // a: the older run.
    void showComparison(const BenchRun& a, const BenchRun& b);
    void showMessage(const QString& message);

    SweepChart* chart() const { return m_chart; }
    QComboBox* xAxis() const { return m_x; }
    QComboBox* yAxis() const { return m_y; }
    QTableWidget* table() const { return m_table; }
    QLabel* references() const { return m_references; }
    QLabel* header() const { return m_header; }
    QLabel* notes() const { return m_notes; }

private:
    enum class Mode { Empty, Run, Comparison };
    void refresh();
    void fillRunTable();
    void fillComparisonTable();
    void showReferences();

    QLabel* m_header;
    QComboBox* m_x; // a key of benchMetrics(): per-user tok/s or a latency
    QComboBox* m_y; // a key of benchMetrics(): a throughput
    SweepChart* m_chart;
    QTableWidget* m_table;
    QLabel* m_notes;
    QLabel* m_references;
    Mode m_mode = Mode::Empty;
    BenchRun m_a;
    BenchRun m_b;
    std::optional<ReferenceTable> m_refs;
};

} // namespace kf
