// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 KernelForge authors
#pragma once

#include "core/gpu/gpufield.h"

#include <QByteArrayView>
#include <QList>
#include <QString>
#include <QStringList>

// GPM (GPU Performance Monitoring, NVML's nvmlGpmMetricsGet: Hopper and newer, driver 525+)
// through `nvidia-smi dmon`, the Dmon rows of the field table (core/gpu/gpufield.h): SM active,
// SM occupancy, tensor active, DRAM active, PCIe and NVLink TX/RX. Nothing is installed: dmon
// ships with the driver.
//
// Wire format of `nvidia-smi dmon --gpm-metrics 2,3,5,10,20,21,61,60 -d S` (nvidia-smi's
// "Device Monitoring"; what is known of it is written down in tests/data/nvidia-smi/gpm/README.md):
//   - header lines start with '#': the column names, then (unless --format csv,nounit) their
//     units. GPM columns are named by dmon (smutil, smocc, mmaact, dram, pcitx, pcirx, nvltx,
//     nvlrx) and their unit says GPM ("GPM:%"); dmon's own columns (pwr, gtemp, sm, ...) come first:
//       # gpu    pwr  gtemp  mtemp     sm    mem    enc    dec    jpg    ofa   mclk   pclk  smutil  smocc
//       # Idx      W      C      C      %      %      %      %      %      %    MHz    MHz   GPM:%  GPM:%
//     -o D / T / DT put Date (YYYYMMDD) and Time (HH:MM:SS) columns first ("#Date Time gpu ...").
//     The header may come again (a restarted dmon, a long run).
//   - then one line per GPU per interval, blank-separated in the header's order. A value dmon
//     could not read is "-": a GPU without GPM, a metric the GPU or driver does not have (NVLink
//     on a board without it), the first interval (GPM needs two samples).
//   - with --format csv the same lines are comma-separated ("#gpu, pwr, ...").
//   - anything else is nvidia-smi talking (errors: "Invalid combination of input arguments",
//     "... In use by another client"): kept as a message, never read as values.
// Columns are mapped by the header's names (any order, other columns ignored); a data line
// before the first header, or with another column count, is skipped and counted. Numbers are
// range-checked where they are read: a percentage outside [0, 100.5] or a rate outside
// [0, 1e9] MiB/s is no value.
namespace kf {

// The Dmon row whose dmon column is `name` ("smutil"), in any case; Unknown otherwise.
GpuField gpmFieldFromColumn(QByteArrayView name);

// The columns of the last header seen: a field per column (Unknown: a column KernelForge does
// not read), and where the GPU index is. Carried from one chunk of a stream to the next.
struct DmonLayout
{
    QList<GpuField> columns;
    int gpuColumn = -1;
    bool known() const { return gpuColumn >= 0; }
};

struct DmonResult
{
    QList<GpuSample> samples; // index and the Dmon fields of one line each, in stream order
    DmonLayout layout;        // the layout after this chunk
    int badLines = 0;         // data lines skipped (before a header, wrong column count, bad index)
    QStringList messages;     // nvidia-smi's own lines, at most 20
};

// Parses complete lines (a trailing line without '\n' too: pass only complete lines when
// streaming), starting from `layout` (the last chunk's).
DmonResult parseDmon(QByteArrayView data, const DmonLayout& layout = {});

// dmon's interval in whole seconds (it takes no less than 1) for a sampling interval in ms.
int dmonIntervalSeconds(int intervalMs);
// The GPM stream: `nvidia-smi dmon -s p --gpm-metrics <ids of metrics> -d S` (the metric ids
// from the rows, in table order). Line-buffered through stdbuf where the host has it (dmon
// writes to a pipe, not a terminal).
QString gpmStreamCommand(const QString& nvidiaSmi, const QList<GpuField>& metrics, int intervalS);
// "2,3,5,10,20,21,61,60"
QString gpmMetricIds(const QList<GpuField>& metrics);

} // namespace kf
