#!/usr/bin/env bash
# Installs the build into a temporary prefix, then builds the README example
# against it twice: through find_package(gjk) and through pkg-config.
# Usage: install_test.sh BUILD_DIR SOURCE_DIR
set -eu
BUILD=$1 SRC=$2
WORK=$(mktemp -d)
trap 'rm -rf "$WORK"' EXIT
cmake --install "$BUILD" --prefix "$WORK/prefix" > "$WORK/install.log"
for f in include/gjk/gjk.h include/gjk/gjk2d.h include/gjk/gjk_math.h include/gjk/gjk_config.h; do
  test -f "$WORK/prefix/$f" || { echo "missing $f"; exit 1; }
done
ls "$WORK"/prefix/lib*/libgjk.a "$WORK"/prefix/lib*/libgjk.so > /dev/null
cmake -S "$SRC/tests/install" -B "$WORK/consumer" -DCMAKE_PREFIX_PATH="$WORK/prefix" > "$WORK/configure.log"
cmake --build "$WORK/consumer" > "$WORK/build.log"
"$WORK/consumer/consumer"
PC=$(ls -d "$WORK"/prefix/lib*/pkgconfig)
flags=$(PKG_CONFIG_PATH="$PC" pkg-config --cflags --libs --static gjk)
cc -std=c11 -o "$WORK/pc_consumer" "$SRC/examples/hello.c" $flags
LD_LIBRARY_PATH="$(dirname "$PC")" "$WORK/pc_consumer"
echo "install test: find_package and pkg-config consumers built and ran"
