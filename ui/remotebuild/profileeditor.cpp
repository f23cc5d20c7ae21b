// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 KernelForge authors
#include "ui/remotebuild/profileeditor.h"

#include <QDialogButtonBox>
#include <QFontDatabase>
#include <QLabel>
#include <QMessageBox>
#include <QPlainTextEdit>
#include <QPushButton>
#include <QTextBlock>
#include <QVBoxLayout>

#include <algorithm>

namespace kf {

namespace {

// The 1-based line of the text that names `name` ("- name: x" or "name: x"); 0 if none.
int lineNaming(const QPlainTextEdit* text, const QString& name)
{
    for (QTextBlock b = text->document()->begin(); b.isValid(); b = b.next()) {
        QString t = b.text().trimmed();
        if (t.startsWith(QLatin1Char('-')))
            t = t.mid(1).trimmed();
        if (t.startsWith(QLatin1String("name:")) && t.mid(5).trimmed() == name)
            return b.blockNumber() + 1;
    }
    return 0;
}

} // namespace

QString ProfileEditor::uniqueName(const QStringList& taken, const QString& base)
{
    QString name = base;
    for (int i = 2; taken.contains(name, Qt::CaseInsensitive); ++i)
        name = QStringLiteral("%1-%2").arg(base).arg(i);
    return name;
}

ProfileEditor::ProfileEditor(const BuildProfile& original, const QList<BuildProfile>& all, SaveFn save, QWidget* parent)
    : QDialog(parent)
    , m_original(original)
    , m_all(all)
    , m_saveFn(std::move(save))
    , m_text(new QPlainTextEdit(this))
    , m_error(new QLabel(this))
{
    setObjectName(QStringLiteral("buildProfileEditor"));
    setWindowTitle(tr("Edit build profile"));
    m_text->setObjectName(QStringLiteral("profileYaml"));
    m_text->setFont(QFontDatabase::systemFont(QFontDatabase::FixedFont));
    m_text->setLineWrapMode(QPlainTextEdit::NoWrap);
    m_text->setPlainText(QString::fromUtf8(serializeBuildProfiles({ original })));
    auto* note = new QLabel(tr("Your profiles are kept in %1. Change the name to rename (a built-in is copied); "
                               "further entries under 'profiles:' are added as new profiles. CMake switches such "
                               "as SGL_KERNEL_ENABLE_FA3 belong in cmake_args: as env they are ignored.")
                                .arg(userBuildProfilesPath()),
        this);
    note->setWordWrap(true);
    m_error->setObjectName(QStringLiteral("profileError"));
    m_error->setWordWrap(true);
    m_error->setStyleSheet(QStringLiteral("color: #b00020;"));
    auto* buttons = new QDialogButtonBox(QDialogButtonBox::Save | QDialogButtonBox::Cancel, this);
    m_save = buttons->button(QDialogButtonBox::Save);
    QPushButton* add = buttons->addButton(tr("&New profile"), QDialogButtonBox::ActionRole);
    add->setObjectName(QStringLiteral("newProfile"));
    add->setToolTip(tr("Add an entry with a name no profile has; Save keeps it beside the others"));
    QPushButton* del = buttons->addButton(tr("&Delete"), QDialogButtonBox::DestructiveRole);
    del->setObjectName(QStringLiteral("deleteProfile"));
    del->setEnabled(!original.builtIn);
    del->setToolTip(original.builtIn ? tr("Built-in profiles stay; edit one to make your own.")
                                     : tr("Delete %1 (a built-in of that name comes back)").arg(original.name));
    auto* l = new QVBoxLayout(this);
    l->addWidget(note);
    l->addWidget(m_text, 1);
    l->addWidget(m_error);
    l->addWidget(buttons);
    resize(680, 460);

    connect(m_text, &QPlainTextEdit::textChanged, this, [this] { check(); });
    check();
    connect(buttons, &QDialogButtonBox::rejected, this, &QDialog::reject);
    connect(buttons, &QDialogButtonBox::accepted, this, &ProfileEditor::save);
    connect(add, &QPushButton::clicked, this, &ProfileEditor::addNewProfile);
    connect(del, &QPushButton::clicked, this, &ProfileEditor::remove);
}

std::optional<QList<BuildProfile>> ProfileEditor::check()
{
    // The one check, as typed and on Save: the parser's message, its line marked in the text.
    const auto parsed = parseBuildProfiles(m_text->toPlainText().toUtf8());
    QString why = parsed ? QString() : parsed.error;
    int line = parsed ? 0 : parsed.errorLine;
    if (parsed && parsed.profiles.isEmpty())
        why = tr("Write at least one profile under 'profiles:'.");
    if (why.isEmpty()) {
        // The parser refuses two of the same name in the text; a name of another saved profile
        // is refused here (it would be overwritten unseen).
        for (const BuildProfile& p : parsed.profiles) {
            const bool taken = std::any_of(m_all.cbegin(), m_all.cend(), [&](const BuildProfile& b) {
                return b.name.compare(p.name, Qt::CaseInsensitive) == 0
                    && b.name.compare(m_original.name, Qt::CaseInsensitive) != 0;
            });
            if (taken) {
                why = tr("A profile named '%1' exists already; pick another name.").arg(p.name);
                line = lineNaming(m_text, p.name);
                break;
            }
        }
    }
    QList<QTextEdit::ExtraSelection> marks;
    if (line > 0) {
        QTextEdit::ExtraSelection mark;
        mark.cursor = QTextCursor(m_text->document()->findBlockByNumber(line - 1));
        mark.format.setBackground(QColor(0xff, 0xd6, 0xd6));
        mark.format.setProperty(QTextFormat::FullWidthSelection, true);
        marks << mark;
    }
    m_text->setExtraSelections(marks);
    m_error->setText(why);
    m_error->setVisible(!why.isEmpty());
    m_save->setEnabled(why.isEmpty());
    if (!why.isEmpty())
        return std::nullopt;
    return parsed.profiles;
}

void ProfileEditor::save()
{
    std::optional<QList<BuildProfile>> written = check();
    if (!written)
        return;
    QStringList moved;
    for (BuildProfile& p : *written)
        moved += moveCMakeOnlyEnv(p);
    moved.removeDuplicates();
    // The entry named like the profile edited replaces it; without one, the first is its rename.
    const auto keeps = std::find_if(written->begin(), written->end(),
        [&](const BuildProfile& p) { return p.name.compare(m_original.name, Qt::CaseInsensitive) == 0; });
    BuildProfile& edited = keeps != written->end() ? *keeps : written->first();
    QList<BuildProfile> next = m_all;
    // Renaming one of yours replaces it; a renamed built-in is a new profile beside it.
    const QString replaced = m_original.builtIn ? edited.name : m_original.name;
    QStringList names;
    for (const BuildProfile& p : std::as_const(*written)) {
        const QString match = &p == &edited ? replaced : p.name;
        auto it = std::find_if(next.begin(), next.end(),
            [&](const BuildProfile& b) { return b.name.compare(match, Qt::CaseInsensitive) == 0; });
        if (it != next.end())
            *it = p;
        else
            next << p;
        names << p.name;
    }
    if (const Result<void> s = m_saveFn(next, edited.name); !s) {
        m_error->setText(tr("Not saved: %1").arg(s.error()));
        m_error->show();
        return;
    }
    m_outcome = tr("Saved %1 to %2.").arg(names.join(QStringLiteral(", ")), userBuildProfilesPath())
        + (moved.isEmpty() ? QString() : tr(" Moved into cmake_args: %1.").arg(moved.join(QStringLiteral(", "))));
    accept();
}

void ProfileEditor::remove()
{
    if (QMessageBox::question(this, tr("Delete build profile"),
            tr("Delete the build profile %1 from %2?").arg(m_original.name, userBuildProfilesPath()))
        != QMessageBox::Yes)
        return;
    QList<BuildProfile> next = m_all;
    next.removeIf([&](const BuildProfile& b) { return b.name == m_original.name; });
    if (const Result<void> s = m_saveFn(next, QString()); !s) {
        m_error->setText(tr("Not deleted: %1").arg(s.error()));
        m_error->show();
        return;
    }
    m_outcome = tr("Deleted %1 from %2.").arg(m_original.name, userBuildProfilesPath());
    accept();
}

void ProfileEditor::addNewProfile()
{
    // Free among the saved profiles and the entries already typed (those that parse).
    QStringList taken;
    for (const BuildProfile& p : std::as_const(m_all))
        taken << p.name;
    const auto typed = parseBuildProfiles(m_text->toPlainText().toUtf8());
    for (const BuildProfile& p : typed.profiles)
        taken << p.name;
    BuildProfile p;
    p.name = uniqueName(taken, QStringLiteral("new-profile"));
    const BuildProfile& like = typed.profiles.isEmpty() ? m_original : typed.profiles.first();
    p.workingDirectory = like.workingDirectory.isEmpty() ? QStringLiteral("~") : like.workingDirectory;
    p.command = like.command.isEmpty() ? QStringLiteral("make") : like.command;
    // The serializer's entry without its "profiles:" line: the same indentation as the others.
    QString entry = QString::fromUtf8(serializeBuildProfiles({ p }));
    entry = entry.mid(entry.indexOf(QLatin1Char('\n')) + 1);
    if (!entry.endsWith(QLatin1Char('\n')))
        entry += QLatin1Char('\n');
    QString text = m_text->toPlainText();
    if (text.trimmed().isEmpty())
        text = QStringLiteral("profiles:\n");
    else if (!text.endsWith(QLatin1Char('\n')))
        text += QLatin1Char('\n');
    m_text->setPlainText(text + entry);
    // The cursor on the new name, ready to be typed over.
    if (const int line = lineNaming(m_text, p.name); line > 0) {
        QTextCursor c(m_text->document()->findBlockByNumber(line - 1));
        c.movePosition(QTextCursor::EndOfBlock);
        c.movePosition(QTextCursor::Left, QTextCursor::KeepAnchor, int(p.name.size()));
        m_text->setTextCursor(c);
    }
    m_text->setFocus();
}

} // namespace kf
