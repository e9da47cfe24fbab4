# cmake --install and CPack (.deb). Included last by the top-level CMakeLists.txt, when every program exists.
#   bin/                          faultline, faultline-cli, faultline-service (when built)
#   share/faultline/              rules/ and result.schema.json, found by the installed programs
#                                 (core/engine/datadir.cpp: <prefix>/bin/.. /share/faultline)
#   share/applications, share/metainfo, share/icons/hicolor/scalable/apps, share/man/man1,
#   share/bash-completion/completions
include(GNUInstallDirs)

set(FAULTLINE_INSTALLED_PROGRAMS faultline-cli)
foreach(program faultline faultline-service)
  if(TARGET ${program})
    list(APPEND FAULTLINE_INSTALLED_PROGRAMS ${program})
  endif()
endforeach()
install(TARGETS ${FAULTLINE_INSTALLED_PROGRAMS} RUNTIME DESTINATION ${CMAKE_INSTALL_BINDIR})

set(FAULTLINE_DATADIR ${CMAKE_INSTALL_DATADIR}/faultline)
install(DIRECTORY ${PROJECT_SOURCE_DIR}/rules/ DESTINATION ${FAULTLINE_DATADIR}/rules FILES_MATCHING PATTERN "*.jsonc")
install(FILES ${PROJECT_SOURCE_DIR}/resources/result.schema.json ${PROJECT_SOURCE_DIR}/resources/exercises.json
        DESTINATION ${FAULTLINE_DATADIR})

# Bash completion scripts, written by each program from its own parser after it is built.
foreach(program faultline-cli faultline)
  if(TARGET ${program})
    install(FILES ${PROJECT_BINARY_DIR}/completions/${program}
            DESTINATION ${CMAKE_INSTALL_DATADIR}/bash-completion/completions)
  endif()
endforeach()

# Man pages carry the version and the installed data folder.
set(FAULTLINE_MAN_PAGES faultline-cli.1)
if(TARGET faultline)
  list(APPEND FAULTLINE_MAN_PAGES faultline.1)
endif()
foreach(page ${FAULTLINE_MAN_PAGES})
  configure_file(${PROJECT_SOURCE_DIR}/resources/man/${page} ${PROJECT_BINARY_DIR}/man/${page} @ONLY)
  install(FILES ${PROJECT_BINARY_DIR}/man/${page} DESTINATION ${CMAKE_INSTALL_MANDIR}/man1)
endforeach()

if(TARGET faultline)
  set(FAULTLINE_APP_ID org.faultline.Faultline)
  set(desktop ${PROJECT_SOURCE_DIR}/resources/desktop)
  install(FILES ${desktop}/${FAULTLINE_APP_ID}.desktop DESTINATION ${CMAKE_INSTALL_DATADIR}/applications)
  install(FILES ${desktop}/${FAULTLINE_APP_ID}.svg DESTINATION ${CMAKE_INSTALL_DATADIR}/icons/hicolor/scalable/apps)
  configure_file(${desktop}/${FAULTLINE_APP_ID}.metainfo.xml ${PROJECT_BINARY_DIR}/${FAULTLINE_APP_ID}.metainfo.xml
                 @ONLY)
  install(FILES ${PROJECT_BINARY_DIR}/${FAULTLINE_APP_ID}.metainfo.xml DESTINATION ${CMAKE_INSTALL_DATADIR}/metainfo)
endif()

# cpack -G DEB (in the build folder): faultline_VERSION_amd64.deb. Depends: what dpkg-shlibdeps finds for the
# linked libraries, plus the packages of the plugins the programs load with dlopen, which it cannot see
# (the same ones scripts/check-runtime-deps.sh checks).
set(CPACK_PACKAGE_NAME faultline)
set(CPACK_PACKAGE_VENDOR "Faultline")
set(CPACK_PACKAGE_CONTACT "Faultline maintainers <faultline@example.org>")
set(CPACK_PACKAGE_DESCRIPTION_SUMMARY "find why a distributed AI workload failed, from its logs")
set(CPACK_PACKAGE_DESCRIPTION "Faultline reads the logs of a failed multi-node GPU job (rank logs, syslog,\n"
    "dmesg, Fabric Manager, scheduler records, metrics) and names the initiating event\n"
    "(node, GPU, rank, time) with its downstream symptoms, or says ambiguous or\n"
    "unattributed. faultline-cli for terminals and scripts, faultline the Qt workbench.")
string(REPLACE ";" "" CPACK_PACKAGE_DESCRIPTION "${CPACK_PACKAGE_DESCRIPTION}")
set(CPACK_GENERATOR DEB)
set(CPACK_PACKAGING_INSTALL_PREFIX /usr)
set(CPACK_STRIP_FILES ON)
set(CPACK_DEBIAN_FILE_NAME DEB-DEFAULT)
set(CPACK_DEBIAN_PACKAGE_SECTION utils)
set(CPACK_DEBIAN_PACKAGE_SHLIBDEPS ON)
set(FAULTLINE_DEB_PLUGIN_DEPENDS "")
if(TARGET faultline)
  # Qt's SQLite driver (notes), platform plugins (xcb, offscreen) and image formats, fonts for offscreen.
  set(FAULTLINE_DEB_PLUGIN_DEPENDS "libqt6sql6-sqlite, libqt6gui6, fonts-dejavu-core")
endif()
set(CPACK_DEBIAN_PACKAGE_DEPENDS "${FAULTLINE_DEB_PLUGIN_DEPENDS}")
include(CPack)
