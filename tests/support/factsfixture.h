// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 KernelForge authors
#pragma once

// Apart from testsupport.h, which every test includes: not every test wants the server facts
// types in scope.
#include "core/hosts/serverfacts.h"

namespace kf::test {

// tests/data/facts/<name> read by parseServerFacts; a file that does not parse ends the run.
ServerFacts factsFixture(const QString& name);

} // namespace kf::test
