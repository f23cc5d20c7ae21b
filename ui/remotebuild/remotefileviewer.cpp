// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 KernelForge authors
#include "ui/remotebuild/remotefileviewer.h"

#include "core/transport/transportpool.h"
#include "ui/common/textline.h"

#include <QFontDatabase>
#include <QLabel>
#include <QPlainTextEdit>
#include <QVBoxLayout>
#include <QtConcurrent>

namespace kf {

RemoteFileViewer::RemoteFileViewer(
    std::shared_ptr<Transport> transport, QStringList candidates, int line, QWidget* parent)
    : QDialog(parent)
    , m_title(new QLabel(this))
    , m_text(new QPlainTextEdit(this))
    , m_line(line)
{
    setWindowTitle(tr("Remote file (read-only)"));
    m_text->setReadOnly(true);
    m_text->setFont(QFontDatabase::systemFont(QFontDatabase::FixedFont));
    m_text->setLineWrapMode(QPlainTextEdit::NoWrap);
    m_title->setTextFormat(Qt::PlainText); // the server's path and error
    m_title->setText(tr("Loading %1…").arg(candidates.value(0)));
    m_title->setTextInteractionFlags(Qt::TextSelectableByMouse);
    auto* l = new QVBoxLayout(this);
    l->addWidget(m_title);
    l->addWidget(m_text, 1);
    resize(900, 600);
    using R = std::pair<QString, Result<QByteArray>>;
    m_requests.track(QtConcurrent::run(transportPool(),
                         [transport, candidates]() -> R {
                             R last { candidates.value(0), Result<QByteArray>::failure(QStringLiteral("no path")) };
                             for (const QString& c : candidates) {
                                 auto data = transport->readFile(c);
                                 if (data)
                                     return { c, data };
                                 last = { c, data };
                             }
                             return last;
                         }),
        [this](const R& r) {
            if (!r.second)
                m_title->setText(tr("Cannot read %1: %2").arg(r.first, r.second.error()));
            else
                showContent(r.first, *r.second);
        });
}

void RemoteFileViewer::showContent(const QString& path, const QByteArray& data)
{
    m_title->setText(tr("%1, line %2").arg(path).arg(m_line));
    m_text->setPlainText(QString::fromUtf8(data));
    markLine(m_text, m_line - 1, QColor(255, 220, 220));
    Q_EMIT loaded(path);
}

} // namespace kf
