// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 KernelForge authors
#pragma once

#include <QString>

class QWidget;

// Text from a server, an exporter or a recipe never renders as rich text: a QLabel that shows
// it is Qt::PlainText (or, when the label is rich, the text is toHtmlEscaped()), and the two
// places where Qt guesses with Qt::mightBeRichText() and cannot be told otherwise go through
// these. A "<img src=...>" or "<b style=...>" in a GPU's name stays those characters.
namespace kf {

// A tool tip showing exactly `text` (escaped, line breaks kept); empty for no tip.
QString plainToolTip(const QString& text);

// A Yes/Cancel question (Cancel is the default) whose text is plain text.
bool askPlain(QWidget* parent, const QString& title, const QString& text);

} // namespace kf
