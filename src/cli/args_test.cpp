#include "cli/args.h"

#include <doctest/doctest.h>

using namespace fabricctl;
namespace po = boost::program_options;

namespace {

po::options_description sample() {
  po::options_description desc;
  desc.add_options()("inventory,i", po::value<std::string>(), "")("snapshots,s", po::value<std::string>(), "")(
      "severity", po::value<std::string>(), "")("skip", po::value<std::string>(), "");
  return desc;
}

}  // namespace

TEST_CASE("args: an unknown option gets the option it is a unique prefix of, or the closest one") {
  const po::options_description desc = sample();
  CHECK(unknown_option_message("--inventroy", desc) == "unknown option --inventroy; did you mean --inventory?");
  CHECK(unknown_option_message("--inv", desc) == "unknown option --inv; did you mean --inventory?");
  // "--s" is the prefix of three options: no guess; nothing within edit distance either.
  CHECK(unknown_option_message("--s", desc) == "unknown option --s");
  CHECK(unknown_option_message("--sev", desc) == "unknown option --sev; did you mean --severity?");
  CHECK(unknown_option_message("--bogus", desc) == "unknown option --bogus");
  CHECK(unknown_option_message("-x", desc) == "unknown option -x");
}

TEST_CASE("args: a value outside its choices is named, with a suggestion and the choices") {
  const std::vector<std::string_view> formats = {"table", "json", "junit", "prometheus"};
  CHECK(check_choice("format", "json", formats).empty());
  CHECK(check_choice("format", "jsn", formats) ==
        "unknown format \"jsn\"; did you mean \"json\"? (table, json, junit, prometheus)");
  CHECK(check_choice("format", "prom", formats) ==
        "unknown format \"prom\"; did you mean \"prometheus\"? (table, json, junit, prometheus)");
  // "j" is a prefix of two: no guess.
  CHECK(check_choice("format", "j", formats) == "unknown format \"j\" (table, json, junit, prometheus)");
  CHECK(check_choice("format", "yaml", formats) == "unknown format \"yaml\" (table, json, junit, prometheus)");
}

TEST_CASE("args: no prefix guessing, and a stray positional argument is named") {
  po::options_description desc = sample();
  int exit = -1;
  CHECK_FALSE(parse_args({"--inv", "x"}, desc, "fabricctl validate -i INVENTORY", exit));
  CHECK(exit == 2);
  exit = -1;
  CHECK(parse_args({"--inventory", "x"}, desc, "fabricctl validate -i INVENTORY", exit));
  CHECK(exit == -1);
  CHECK_FALSE(parse_args({"inv/lab", "extra"}, desc, "fabricctl validate -i INVENTORY", exit));
  CHECK(exit == 2);
}
