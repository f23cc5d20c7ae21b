// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 KernelForge authors
#pragma once

#include "core/remotebuild/buildprofile.h"
#include "core/util/result.h"

#include <QDialog>
#include <QList>
#include <QString>

#include <functional>
#include <optional>

class QLabel;
class QPlainTextEdit;
class QPushButton;

namespace kf {

// The Build pane's profile editor: the profile as YAML (every field visible, the format of the
// file the user can also edit), checked by parseBuildProfiles as it is typed; Save is offered
// only for valid text. The text may hold several profiles: the one named like the profile
// edited (else the first) replaces it (a rename; a renamed built-in is a copy beside it), the
// others are added. *New profile* appends a well-formed entry with a name no profile has.
// Lines never wrap (a wrapped command would start at column 0 and read as mis-indented YAML):
// the text scrolls sideways.
class ProfileEditor : public QDialog
{
    Q_OBJECT
public:
    // Writes the whole list and selects `select` in the pane; the error says why not.
    using SaveFn = std::function<Result<void>(const QList<BuildProfile>& all, const QString& select)>;

    ProfileEditor(const BuildProfile& original, const QList<BuildProfile>& all, SaveFn save, QWidget* parent);

    // What was done, for the pane's summary ("Saved a, b to PATH."); empty until then.
    QString outcome() const { return m_outcome; }
    // A name that none of `taken` has (case-insensitively): base, else "base-2", "base-3", ...
    static QString uniqueName(const QStringList& taken, const QString& base);

private:
    // The profiles the text holds, valid and with free names; nullopt: the reason is shown.
    std::optional<QList<BuildProfile>> check();
    void save();
    void remove();
    void addNewProfile();

    BuildProfile m_original;
    QList<BuildProfile> m_all;
    SaveFn m_saveFn;
    QPlainTextEdit* m_text;
    QLabel* m_error;
    QPushButton* m_save;
    QString m_outcome;
};

} // namespace kf
