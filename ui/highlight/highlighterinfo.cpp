// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 KernelForge authors
#include "ui/highlight/highlighterinfo.h"

#ifdef KF_HAVE_KSYNTAXHIGHLIGHTING
#include <KSyntaxHighlighting/Repository>
#endif

namespace kf {

QString highlighterBackendName()
{
#ifdef KF_HAVE_KSYNTAXHIGHLIGHTING
    return QStringLiteral("KSyntaxHighlighting (KF6)");
#else
    return QStringLiteral("built-in (diff, CMake, Python, C++/CUDA, shell)");
#endif
}

} // namespace kf
