// Includes run down: allowed.
#pragma once

#include "core/low/low.h"
