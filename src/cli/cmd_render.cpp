#include <iomanip>
#include <iostream>
#include <map>
#include <optional>

#include "cli/args.h"
#include "cli/command.h"
#include "cli/fabric_options.h"
#include "render/render.h"
#include "util/phase_timer.h"

namespace fabricctl {

int cmd_render(const std::vector<std::string>& args) {
  FabricOptions o;
  std::string out_dir;
  boost::program_options::options_description desc("render options");
  add_fabric_options(desc, o);
  desc.add_options()("out,o", boost::program_options::value(&out_dir)->value_name("DIR")->required(),
                     "output directory (replaced on every run)");
  int exit = kExitOk;
  if (!parse_args(args, desc, "fabricctl render -i INVENTORY --out DIR [-p PROFILES] [--templates DIR]", exit))
    return exit;
  const auto fabric = load_fabric(o);
  if (!fabric) return kExitInvalid;

  // Devices are rendered into a staging directory that replaces OUT only when all of them
  // rendered: a template error leaves OUT untouched.
  Diags diags;
  std::optional<PhaseTimer> timer(std::in_place, "render and write");
  // merge: the renderer takes the whole ordered list (o.template_dirs) once it falls back per file;
  // until then the first directory (the site's, or the shipped one) holds every template.
  const auto rendered = render_fabric_into(fabric->desired, o.template_dirs.front(), out_dir, diags);
  timer.reset();
  if (!diags.empty()) {
    std::cerr << diags.str() << "fabricctl: rendering failed; nothing was written\n";
    return kExitInvalid;
  }
  if (!rendered) {
    std::cerr << "fabricctl: error: " << rendered.error() << "\n";
    return kExitInvalid;
  }

  std::cout << std::left << std::setw(16) << "DEVICE" << std::setw(9) << "PLATFORM" << std::setw(8) << "ROLE"
            << std::setw(18) << "PROFILE" << std::setw(7) << "PORTS"
            << "FILES\n";
  std::map<std::string, int> per_platform;
  size_t files = 0;
  for (size_t i = 0; i < rendered->size(); ++i) {
    const DeviceDesired& d = fabric->desired.devices[i];
    std::string names;
    for (const std::string& f : (*rendered)[i].files) names += (names.empty() ? "" : " ") + f;
    files += (*rendered)[i].files.size();
    ++per_platform[std::string(to_string(d.platform))];
    std::cout << std::setw(16) << d.name << std::setw(9) << to_string(d.platform) << std::setw(8) << to_string(d.role)
              << std::setw(18) << d.profile << std::setw(7) << d.ports.size() << names << "\n";
  }
  std::string mix;
  for (const auto& [p, n] : per_platform) mix += (mix.empty() ? "" : ", ") + std::to_string(n) + " " + p;
  std::cout << "rendered " << rendered->size() << " devices (" << mix << "), " << files << " files, " << fabric->links
            << " links into " << out_dir << "\n";
  return kExitOk;
}

}  // namespace fabricctl
