// Telling the person that a question waits when nobody is looking at it: the --on-question
// commands, a desktop notification (notify-send) and OSC 9 / OSC 777 to a terminal known to show
// them. Each runs on its own and is never waited for.
#pragma once

#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "core/model/outcome.hpp"

namespace askhost {

// What is wrong with an --on-question command line (what cli::split_command_line refuses, no
// words, a program that is not there), or nullopt when it can run.
std::optional<std::string> command_line_problem(std::string_view line);

// The OSC sequence (without the terminal's own wrapping) that shows a notification in the
// terminal named by TERM_PROGRAM / TERM, or "" when it is not one known to show them.
std::string osc_notification(std::string_view term_program, std::string_view term, std::string_view title,
                             std::string_view body);

struct NotifyOptions {
    std::vector<std::string> on_question;  // --on-question commands
    bool desktop = false;                  // notify-send, when on PATH
    bool terminal = false;                 // OSC 9/777 to /dev/tty, when the terminal shows them
};

// Runs what `options` asks for, for `ask`. `log` hears what could not be done.
void tell_question_waiting(const Ask& ask, const NotifyOptions& options, void (*log)(std::string_view) = nullptr);

}  // namespace askhost
