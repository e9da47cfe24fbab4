// Moved to core/present/timefmt.h (all human-readable text lives in core/present/).
#pragma once
#include "present/timefmt.h"
