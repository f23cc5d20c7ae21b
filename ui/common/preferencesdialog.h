// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 KernelForge authors
#pragma once

#include "ui/common/preferences.h"

#include <QDialog>

class QCheckBox;
class QComboBox;
class QSpinBox;

namespace kf {

// Edit > Preferences: a form over `Preferences`. It saves nothing itself: the window saves what
// preferences() returns on OK and applies it (MainWindow::showPreferences).
class PreferencesDialog : public QDialog
{
    Q_OBJECT
public:
    explicit PreferencesDialog(const Preferences& current, QWidget* parent = nullptr);
    // The form's values, over the ones it was opened with.
    Preferences preferences() const;

private:
    Preferences m_initial;
    QSpinBox* m_refresh;
    QComboBox* m_memory;
    QComboBox* m_temperature;
    QComboBox* m_chartWindow;
    QCheckBox* m_reconnect;
    QCheckBox* m_notify;
};

} // namespace kf
