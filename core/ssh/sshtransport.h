// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 KernelForge authors
#pragma once

// SshTransport lives in core/transport (next to the Transport interface); this header is
// the spelling the rest of the code base was promised.
#include "core/transport/sshtransport.h"
