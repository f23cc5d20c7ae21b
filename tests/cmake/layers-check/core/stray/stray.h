// A folder the order does not name.
#pragma once
