# Shared by the Python test runners (scripts/browser-test.sh, scripts/ops-test.sh): a virtualenv
# of their own for PyPI test tools, and the debug build of herald. Source it; it defines functions.

# ensure_venv VENV REQUIREMENTS LABEL [PIP-OPTION…]: a venv at VENV with REQUIREMENTS installed
# (with the pip options given); reinstalled only when REQUIREMENTS changes.
ensure_venv() {
  local venv=$1 requirements=$2 label=$3
  shift 3
  if ! "$venv/bin/python" -m pip --version >/dev/null 2>&1; then
    rm -rf "$venv"
    /usr/bin/python3 -m venv "$venv"
  fi
  if ! cmp -s "$requirements" "$venv/.requirements.txt"; then
    echo "$label: installing $requirements into $venv"
    "$venv/bin/python" -m pip install --quiet --disable-pip-version-check --no-input "$@" -r "$requirements"
    cp "$requirements" "$venv/.requirements.txt"
  fi
}

# ensure_herald BUILD HERALD LABEL: with BUILD=1, builds herald when it is missing or older than
# its sources (SwiftPM decides the rest); with BUILD=0, only checks that it is there.
ensure_herald() {
  local build=$1 herald=$2 label=$3
  if [ "$build" -eq 1 ]; then
    if [ ! -x "$herald" ] || [ -n "$(find Sources Plugins Package.swift -newer "$herald" -print -quit)" ]; then
      make --no-print-directory deps
      swift build --product herald
    fi
  elif [ ! -x "$herald" ]; then
    echo "$label: $herald is missing; run without --no-build" >&2
    exit 1
  fi
}
