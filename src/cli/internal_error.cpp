#include "cli/internal_error.h"

#include <exception>
#include <new>

#include "cli/command.h"
#include "util/diag.h"

namespace fabricctl {
namespace {

// Exception texts can quote input (a file name, a value); print them through quote() so they
// cannot drive the terminal, without the surrounding quotes.
std::string clean(const char* what) {
  const std::string q = quote(what ? what : "");
  return q.substr(1, q.size() - 2);
}

}  // namespace

int run_guarded(const std::function<int()>& body, std::ostream& err) {
  try {
    return body();
  } catch (const std::bad_alloc&) {
    err << "fabricctl: internal error: out of memory\n";
  } catch (const std::exception& e) {
    err << "fabricctl: internal error: " << clean(e.what()) << "\n";
  } catch (...) {
    err << "fabricctl: internal error: unknown exception\n";
  }
  err.flush();
  return kExitInternal;
}

}  // namespace fabricctl
