// askhost-web: the program `askhost web` runs (host/app/main.cpp finds it beside itself). A program
// of its own so that Beast and OpenSSL stay out of every other askhost's memory: libcrypto alone
// kept 1.4 MB resident in each `askhost hook` and `askhost mcp`.
#include <csignal>
#include <exception>
#include <string>
#include <vector>

#include "core/fd_io.hpp"
#include "web/web_command.hpp"

int main(int argc, char** argv) {
    std::signal(SIGPIPE, SIG_IGN);  // a closed socket is an error value, not a death
    try {
        return askhost::web::run_web(std::vector<std::string>(argv + 1, argv + argc));
    } catch (const std::exception& e) {
        askhost::write_all(2, std::string("askhost web: unexpected error: ") + e.what() + "\n");
    } catch (...) {
        askhost::write_all(2, "askhost web: unexpected error\n");
    }
    return 1;
}
