// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 KernelForge authors
#include "ui/common/preferencesdialog.h"

#include <QCheckBox>
#include <QComboBox>
#include <QDialogButtonBox>
#include <QFormLayout>
#include <QLabel>
#include <QSpinBox>
#include <QVBoxLayout>

namespace kf {

PreferencesDialog::PreferencesDialog(const Preferences& current, QWidget* parent)
    : QDialog(parent)
    , m_initial(current)
    , m_refresh(new QSpinBox(this))
    , m_memory(new QComboBox(this))
    , m_temperature(new QComboBox(this))
    , m_chartWindow(new QComboBox(this))
    , m_reconnect(new QCheckBox(tr("Reconnect the hosts that were connected when KernelForge closed"), this))
    , m_notify(new QCheckBox(tr("Notify when a build finishes, fails or is cancelled"), this))
{
    setObjectName(QStringLiteral("preferencesDialog"));
    setWindowTitle(tr("Preferences"));

    m_refresh->setObjectName(QStringLiteral("gpuRefreshMs"));
    m_refresh->setRange(Preferences::kMinRefreshMs, Preferences::kMaxRefreshMs);
    m_refresh->setSingleStep(250);
    m_refresh->setSuffix(tr(" ms"));
    m_refresh->setValue(current.gpuRefreshMs);
    m_refresh->setToolTip(tr("How often nvidia-smi samples the GPUs (its -lms interval); running streams restart "
                             "with the new interval"));

    m_memory->setObjectName(QStringLiteral("memoryUnit"));
    m_memory->addItem(tr("GiB (71.5 GiB)"), int(Preferences::MemoryUnit::GiB));
    m_memory->addItem(tr("MiB (73216 MiB, as nvidia-smi)"), int(Preferences::MemoryUnit::MiB));
    m_memory->setCurrentIndex(m_memory->findData(int(current.memoryUnit)));

    m_temperature->setObjectName(QStringLiteral("temperatureUnit"));
    m_temperature->addItem(tr("Celsius (°C)"), int(Preferences::TemperatureUnit::Celsius));
    m_temperature->addItem(tr("Fahrenheit (°F)"), int(Preferences::TemperatureUnit::Fahrenheit));
    m_temperature->setCurrentIndex(m_temperature->findData(int(current.temperatureUnit)));

    m_chartWindow->setObjectName(QStringLiteral("chartWindow"));
    const QList<QPair<QString, int>> windows { { tr("Last 5 minutes"), 300 }, { tr("Last hour"), 3600 },
        { tr("Last 6 hours"), 6 * 3600 }, { tr("Last 24 hours"), 24 * 3600 }, { tr("All history"), 0 } };
    for (const auto& [label, seconds] : windows)
        m_chartWindow->addItem(label, seconds);
    if (m_chartWindow->findData(current.chartWindowSeconds) < 0) // kept from elsewhere (settings file)
        m_chartWindow->addItem(
            tr("Last %n second(s)", nullptr, current.chartWindowSeconds), current.chartWindowSeconds);
    m_chartWindow->setCurrentIndex(m_chartWindow->findData(current.chartWindowSeconds));

    m_reconnect->setObjectName(QStringLiteral("reconnectOnStart"));
    m_reconnect->setChecked(current.reconnectOnStart);
    m_notify->setObjectName(QStringLiteral("notifyOnBuildEnd"));
    m_notify->setChecked(current.notifyOnBuildEnd);
    m_notify->setToolTip(tr("A desktop notification where the desktop shows them; otherwise the status bar and "
                            "the taskbar's attention hint"));

    auto* form = new QFormLayout;
    form->addRow(tr("GPU refresh interval:"), m_refresh);
    form->addRow(tr("Memory in:"), m_memory);
    form->addRow(tr("Temperature in:"), m_temperature);
    form->addRow(tr("Charts open showing:"), m_chartWindow);
    form->addRow(QString(), m_reconnect);
    form->addRow(QString(), m_notify);
    auto* buttons = new QDialogButtonBox(QDialogButtonBox::Ok | QDialogButtonBox::Cancel, this);
    connect(buttons, &QDialogButtonBox::accepted, this, &QDialog::accept);
    connect(buttons, &QDialogButtonBox::rejected, this, &QDialog::reject);
    auto* note = new QLabel(tr("Changes apply at once, to open views too."), this);
    note->setForegroundRole(QPalette::PlaceholderText);
    auto* layout = new QVBoxLayout(this);
    layout->addLayout(form);
    layout->addWidget(note);
    layout->addWidget(buttons);
}

Preferences PreferencesDialog::preferences() const
{
    Preferences p = m_initial;
    p.gpuRefreshMs = m_refresh->value();
    p.memoryUnit = Preferences::MemoryUnit(m_memory->currentData().toInt());
    p.temperatureUnit = Preferences::TemperatureUnit(m_temperature->currentData().toInt());
    p.chartWindowSeconds = m_chartWindow->currentData().toInt();
    p.reconnectOnStart = m_reconnect->isChecked();
    p.notifyOnBuildEnd = m_notify->isChecked();
    return p;
}

} // namespace kf
