// The session's questions and answers in prose, one sentence per question, as the ask_user spec
// asks for at compaction: `askhost history --summary`, and what reaches an agent's compaction
// (docs/files.md).
#pragma once

#include <string>
#include <vector>

#include "store/journal.hpp"

namespace askhost::store {

// User was asked "Which database should we use?" and chose PostgreSQL.
std::string summary_text(const std::vector<Exchange>& exchanges);

}  // namespace askhost::store
