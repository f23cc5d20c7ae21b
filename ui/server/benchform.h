// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 KernelForge authors
#pragma once

#include "core/servebench/benchrun.h"

#include <QTabWidget>

class QCheckBox;
class QComboBox;
class QDoubleSpinBox;
class QLineEdit;
class QPushButton;
class QSpinBox;

namespace kf {

// The Benchmark tab's parameters in three small tabs, so the form fits a 640 px window:
// Workload (API, dataset, lengths, range ratio and its meaning, ShareGPT file, shared-prefix
// groups, unique prefixes), Load (concurrency levels, request rates or a goodput search; requests
// per level, rate, burstiness, ramp-up, stop on saturation) and Goodput (SLOs, target, search
// range). Fields that do not apply to the choices made are disabled. Every field has an object
// name ("bench" + what it holds) for tests.
class BenchForm : public QTabWidget
{
    Q_OBJECT
public:
    explicit BenchForm(QWidget* parent = nullptr);

    // The fields as parameters (serverPort left as given); an error names the field that is wrong.
    Result<BenchParams> params(quint16 serverPort) const;
    void setParams(const BenchParams& params);
    // While a sweep runs, nothing can be changed.
    void setRunning(bool running);

Q_SIGNALS:
    void changed();

private:
    void updateEnabled();

    bool m_running = false;
    QComboBox* m_api;
    QComboBox* m_dataset;
    QSpinBox* m_inputLen;
    QSpinBox* m_outputLen;
    QDoubleSpinBox* m_rangeRatio;
    QComboBox* m_rangeMeaning;
    QLineEdit* m_datasetPath;
    QPushButton* m_browse;
    QSpinBox* m_groups;
    QSpinBox* m_perGroup;
    QSpinBox* m_prefixLen;
    QSpinBox* m_questionLen;
    QCheckBox* m_uniquePrefix;
    QComboBox* m_levelKind;
    QLineEdit* m_concurrency;
    QLineEdit* m_rates;
    QSpinBox* m_maxConcurrency;
    QSpinBox* m_requests;
    QDoubleSpinBox* m_rate;
    QDoubleSpinBox* m_burstiness;
    QComboBox* m_rampUp;
    QDoubleSpinBox* m_rampStart;
    QDoubleSpinBox* m_rampEnd;
    QCheckBox* m_stopOnSaturation;
    QDoubleSpinBox* m_sloTtft;
    QDoubleSpinBox* m_sloTpot;
    QDoubleSpinBox* m_sloE2e;
    QDoubleSpinBox* m_target;
    QSpinBox* m_searchMax;
    BenchParams m_kept; // what the form has no field for (seed, model...), from setParams()
};

} // namespace kf
