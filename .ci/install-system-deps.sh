#!/usr/bin/env bash
# Installs the system packages the test suite needs, when they are missing (idempotent):
# Debian's Chromium for the browser tests, curl for one of them, and pgvector for the PostgreSQL
# half of the tests.
set -euo pipefail

PG_MAJOR=${PG_MAJOR:-$(ls /usr/lib/postgresql 2>/dev/null | sort -n | tail -1)}
apt_updated=no
apt_update() {
  if [ "$apt_updated" = no ]; then
    apt-get update -qq
    apt_updated=yes
  fi
}

if [ ! -x /usr/bin/chromium ]; then
  echo "ci: installing chromium"
  apt_update
  DEBIAN_FRONTEND=noninteractive apt-get install -y -qq chromium fonts-dejavu-core >/dev/null
fi

# The API-keys e2e test runs the page's curl example as it is.
if ! command -v curl >/dev/null; then
  echo "ci: installing curl"
  apt_update
  DEBIAN_FRONTEND=noninteractive apt-get install -y -qq curl >/dev/null
fi

if [ -n "$PG_MAJOR" ] && [ ! -f "/usr/share/postgresql/$PG_MAJOR/extension/vector.control" ]; then
  # Bookworm has no pgvector package; trixie's source package builds against bookworm's server headers.
  echo "ci: building pgvector for PostgreSQL $PG_MAJOR"
  uris=$(grep -h '^URIs:' /etc/apt/sources.list.d/debian.sources 2>/dev/null | head -1 | awk '{print $2}')
  uris=${uris:-http://deb.debian.org/debian}
  cat > /etc/apt/sources.list.d/trixie-src.sources <<SRC
Types: deb-src
URIs: $uris
Suites: trixie
Components: main
Signed-By: /usr/share/keyrings/debian-archive-keyring.gpg
SRC
  apt_updated=no
  apt_update
  DEBIAN_FRONTEND=noninteractive apt-get install -y -qq "postgresql-server-dev-$PG_MAJOR" build-essential dpkg-dev >/dev/null
  work=$(mktemp -d)
  (
    cd "$work"
    apt-get source -qq pgvector >/dev/null 2>&1
    cd pgvector-*/
    make -s PG_CONFIG="/usr/lib/postgresql/$PG_MAJOR/bin/pg_config" >/dev/null
    make -s install PG_CONFIG="/usr/lib/postgresql/$PG_MAJOR/bin/pg_config" >/dev/null
  )
  rm -rf "$work"
fi
