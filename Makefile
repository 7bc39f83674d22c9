# Two commands: `make test` (install what is missing, build, run every test)
# and `make demo` (the main job on a built-in example).

BUILD ?= build
JOBS ?= $(shell nproc 2>/dev/null || echo 2)
CMAKE_FLAGS ?= -DCMAKE_BUILD_TYPE=Release
CTEST = ctest --output-on-failure -j $(JOBS)

# Debian packages the build and the tests need (compilers and cmake are in
# the base image; libqhull is the tests' exact reference, cJSON reads scenes,
# xmllint checks the trace pictures).
DEB_PACKAGES = cmake gcc clang make pkg-config libqhull-dev libcjson-dev libxml2-utils

.PHONY: all deps build test demo clean

all: build

deps:
	@missing=""; \
	for p in $(DEB_PACKAGES); do dpkg -s $$p >/dev/null 2>&1 || missing="$$missing $$p"; done; \
	if [ -n "$$missing" ]; then \
	  echo "installing:$$missing"; \
	  SUDO=""; [ "$$(id -u)" = 0 ] || SUDO=sudo; \
	  $$SUDO apt-get update -qq && DEBIAN_FRONTEND=noninteractive $$SUDO apt-get install -y -qq $$missing; \
	fi

$(BUILD)/CMakeCache.txt:
	cmake -S . -B $(BUILD) $(CMAKE_FLAGS) -DGJK_WARNINGS_AS_ERRORS=ON

build: deps $(BUILD)/CMakeCache.txt
	cmake --build $(BUILD) -j $(JOBS)

# The suite in double (gcc), in float (GJK_FLOAT=ON) and with clang; all
# warnings are errors.
test: build
	cd $(BUILD) && $(CTEST)
	cmake -S . -B $(BUILD)-float $(CMAKE_FLAGS) -DGJK_FLOAT=ON -DGJK_WARNINGS_AS_ERRORS=ON
	cmake --build $(BUILD)-float -j $(JOBS)
	cd $(BUILD)-float && $(CTEST)
	CC=clang cmake -S . -B $(BUILD)-clang $(CMAKE_FLAGS) -DGJK_WARNINGS_AS_ERRORS=ON
	cmake --build $(BUILD)-clang -j $(JOBS)
	cd $(BUILD)-clang && $(CTEST)

# The main job: the gjk program on its built-in scenes (a table of every
# shape and query in 2D and 3D, and two step-by-step trace pages here).
demo: build
	$(BUILD)/tools/gjk demo

clean:
	rm -rf $(BUILD) $(BUILD)-float $(BUILD)-clang
