// A planted upward include: low is below high.
#pragma once

#include "core/high/high.h"
