// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 KernelForge authors
#pragma once

#include "core/gpu/gpufield.h"
#include "core/timeseries/seriesbuffer.h"

#include <QByteArray>
#include <QList>
#include <QMap>
#include <QString>

#include <array>
#include <memory>

namespace kf {

// Every GPU's charted fields (gpuChartFields()) of one host over time: one SeriesBuffer per
// GPU and field, so 24 h at 1 Hz for 8 GPUs stays around 10 MB. All series of a GPU are appended
// together, so their raw levels line up sample for sample (CSV export relies on it). The GPM
// series (the Dmon rows) of a GPU are made with its first GPM value, so a host without GPM pays
// nothing for them; from then on they are appended with the others (their raw level is the tail
// of the others').
// Not thread-safe: lives in the thread of its GpuMonitor.
class GpuHistory
{
public:
    void append(qint64 tMs, const QList<GpuSample>& gpus);
    void clear() { m_series.clear(); }
    QList<int> gpus() const { return m_series.keys(); }
    // Null when the GPU has never been seen, the field is not charted, or (a GPM field) the GPU
    // never gave a value for it.
    const SeriesBuffer* series(int gpu, GpuField field) const;
    // The mean of the raw samples of [fromMs, toMs] (gaps left out); noValue() without any. What a
    // benchmark level reads: the GPM fields per level (tensor activity against token rate).
    double mean(int gpu, GpuField field, qint64 fromMs, qint64 toMs) const;
    // Raw samples in [fromMs, toMs] as CSV: time (ISO 8601, UTC), gpu, then every charted
    // field in chart order, named label_unit ("memory_used_pct", "pcie_tx_mib_s"); empty cells
    // where a field has no value (a GPU without GPM, a gap).
    QByteArray toCsv(qint64 fromMs, qint64 toMs) const;
    size_t memoryBytes() const;

private:
    using Row = std::array<std::unique_ptr<SeriesBuffer>, kGpuChartCount>;
    QMap<int, std::shared_ptr<Row>> m_series;
};

} // namespace kf
