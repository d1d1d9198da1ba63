// Answers longer than a strict agent's result may hold (Limits::max_result_bytes): the whole text
// is saved under .askhost/answers/ in the asking agent's folder and the agent reads where.
#pragma once

#include <cstddef>
#include <string>
#include <string_view>

#include "core/model/outcome.hpp"

namespace askhost::store {

// Fits `outcome` (answered, for a strict ask) to the cap (fit_result_cap), saving each cut text as
// `<base>/.askhost/answers/<ask id>-<time>-q<N>.txt` (base: the ask's cwd, else askhost's), mode
// 0600. Returns a line for the person saying what was cut and where it went ("" when nothing was).
std::string fit_long_answers(const Ask& ask, Outcome& outcome);

}  // namespace askhost::store
