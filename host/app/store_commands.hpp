// The subcommands that work on what askhost keeps: `askhost answer`, `askhost questions`,
// `askhost history`. Each returns the exit status: 0 done, 1 it could not be done (the message
// says why; files are left as they were), 2 a usage error.
#pragma once

#include <ostream>
#include <string>
#include <vector>

#include "core/command_line.hpp"
#include "store/journal.hpp"
#include "store/session_summary.hpp"

namespace askhost::store {

extern const cli::Command kAnswerCommand, kQuestionsCommand, kHistoryCommand;

int run_answer(const std::vector<std::string>& args, std::ostream& out, std::ostream& err);
int run_questions(const std::vector<std::string>& args, std::ostream& out, std::ostream& err);
int run_history(const std::vector<std::string>& args, std::ostream& out, std::ostream& err);

}  // namespace askhost::store
