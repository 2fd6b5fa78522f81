# `make install` and the Debian package (docs/install.md). One set of install() rules, GNUInstallDirs
# layout under CMAKE_INSTALL_PREFIX (DESTDIR respected by `cmake --install`):
#   bin/fabricctl
#   share/fabricctl/{profiles,templates}/     the data directory (shipped profiles and templates)
#   share/man/man1/fabricctl.1.gz
#   share/bash-completion/completions/fabricctl
#   share/doc/fabricctl/                      README, docs/*.md, docs/README.md as index.md
# CPack builds fabricctl_<version>_<arch>.deb from the same rules (`make package`).
# GNUInstallDirs is included in CMakeLists.txt, before the layers: the cli layer is compiled with
# the data directory's installed location.

install(TARGETS fabricctl RUNTIME DESTINATION ${CMAKE_INSTALL_BINDIR})
install(DIRECTORY profiles/ DESTINATION ${CMAKE_INSTALL_DATADIR}/fabricctl/profiles
        FILES_MATCHING PATTERN "*.yaml")
install(DIRECTORY templates/ DESTINATION ${CMAKE_INSTALL_DATADIR}/fabricctl/templates
        FILES_MATCHING PATTERN "*.mustache")
# The published JSON Schemas (snapshot, verify report, NIC state), for collectors and report readers.
install(DIRECTORY schemas/ DESTINATION ${CMAKE_INSTALL_DATADIR}/fabricctl/schemas
        FILES_MATCHING PATTERN "*.schema.json" PATTERN "README.md")
install(FILES contrib/bash-completion/fabricctl DESTINATION ${CMAKE_INSTALL_DATADIR}/bash-completion/completions)
install(FILES README.md DESTINATION ${CMAKE_INSTALL_DOCDIR})
# docs/*.md land in the same directory, where the docs index (docs/README.md) would replace the README:
# it is installed as index.md, where its links to the pages beside it still resolve.
install(DIRECTORY docs/ DESTINATION ${CMAKE_INSTALL_DOCDIR} FILES_MATCHING PATTERN "*.md" PATTERN "README.md" EXCLUDE)
install(FILES docs/README.md DESTINATION ${CMAKE_INSTALL_DOCDIR} RENAME index.md)

# The man page: the project version filled in, compressed as Debian policy asks (-n: no name or
# time stamp in the archive, so the build is reproducible). Done when CMake configures (and again
# whenever docs/fabricctl.1.in changes), so that installing needs no particular build target.
configure_file(docs/fabricctl.1.in ${CMAKE_BINARY_DIR}/fabricctl.1 @ONLY)
find_program(GZIP_PROGRAM gzip REQUIRED)
execute_process(COMMAND ${GZIP_PROGRAM} -9nkf ${CMAKE_BINARY_DIR}/fabricctl.1 COMMAND_ERROR_IS_FATAL ANY)
install(FILES ${CMAKE_BINARY_DIR}/fabricctl.1.gz DESTINATION ${CMAKE_INSTALL_MANDIR}/man1)

# The build tree's binary finds the repository's profiles/ and templates/ through a marker beside
# it that names the source tree (the first rule of the data directory search, docs/cli.md). Not
# installed: an installed binary finds <exe dir>/../share/fabricctl instead.
file(GENERATE OUTPUT $<TARGET_FILE_DIR:fabricctl>/fabricctl.datadir CONTENT "${CMAKE_SOURCE_DIR}\n")

# The Debian package. Dependencies come from dpkg-shlibdeps (dpkg-dev) when it is there, since it
# reads them off the binary; otherwise from the list below, which matches Debian 12.
set(FABRICCTL_MAINTAINER "fabricctl maintainers <fabricctl@localhost>" CACHE STRING
    "Maintainer field of the Debian package (Name <email>)")
set(CPACK_GENERATOR DEB)
set(CPACK_PACKAGE_NAME fabricctl)
set(CPACK_PACKAGE_VERSION ${PROJECT_VERSION})
set(CPACK_PACKAGE_CONTACT ${FABRICCTL_MAINTAINER})
set(CPACK_PACKAGE_DESCRIPTION_SUMMARY "lossless RoCE fabric configuration and audit for GPU clusters")
set(CPACK_PACKAGE_DESCRIPTION
    "fabricctl renders declarative RoCE profiles and an inventory into native SONiC, Arista EOS,\n"
    "NVIDIA NVUE and Linux host configuration, and audits snapshots of observed state against\n"
    "the intent on both ends of every link.")
set(CPACK_PACKAGING_INSTALL_PREFIX /usr)
set(CPACK_STRIP_FILES ON)
set(CPACK_DEBIAN_FILE_NAME DEB-DEFAULT)  # fabricctl_<version>_<arch>.deb
set(CPACK_DEBIAN_PACKAGE_SECTION net)
set(CPACK_DEBIAN_PACKAGE_SUGGESTS "bash-completion")
set(CPACK_DEBIAN_PACKAGE_CONTROL_STRICT_PERMISSION ON)
find_program(DPKG_SHLIBDEPS_PROGRAM dpkg-shlibdeps)
if(DPKG_SHLIBDEPS_PROGRAM)
  set(CPACK_DEBIAN_PACKAGE_SHLIBDEPS ON)
else()
  set(CPACK_DEBIAN_PACKAGE_DEPENDS
      "libc6, libstdc++6, libgcc-s1, libfyaml0, libboost-program-options1.74.0, libjemalloc2")
endif()
include(CPack)
