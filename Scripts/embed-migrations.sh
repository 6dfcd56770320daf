#!/usr/bin/env bash
# Writes Migrations/*.sql, the schema's single source, as Swift into the StateStore target
# (Sources/StateStore/Store/Schema/EmbeddedMigrations.swift), the form the binaries carry. Run it after
# adding a migration and commit both; MigrationTests fails while the two differ. Clients build the
# committed file and no plugin: nothing for an app developer to trust.
set -euo pipefail
cd "$(dirname "$0")/.."
swift build --product StateStoreMigrationEmbedder >/dev/null
"$(swift build --show-bin-path)/StateStoreMigrationEmbedder" Sources/StateStore/Store/Schema/EmbeddedMigrations.swift Migrations/*.sql
echo "Sources/StateStore/Store/Schema/EmbeddedMigrations.swift: $(ls Migrations/*.sql | wc -l) migrations"
