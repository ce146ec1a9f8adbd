#!/usr/bin/env bash
# Fails the build when the connector jar holds an entry outside its allowed packages (anything that could clash with
# the classes Spark, Hadoop or an application put on the classpath), or lacks the data source registration.
set -euo pipefail
jar="$1"
jar_tool="${JAVA_HOME:+$JAVA_HOME/bin/}jar"
entries="$("$jar_tool" tf "$jar")"
outside="$(grep -v -E '^(io/duetdb/spark/|META-INF/)' <<<"$entries" | grep -v -E '^(io/|io/duetdb/)$' || true)"
if [ -n "$outside" ]; then
  echo "error: $jar holds $(wc -l <<<"$outside") entries outside io/duetdb/spark/ and META-INF/, for example:" >&2
  head -n 20 <<<"$outside" >&2
  exit 1
fi
services="META-INF/services/org.apache.spark.sql.sources.DataSourceRegister"
scratch="$(mktemp -d)"
trap 'rm -rf "$scratch"' EXIT
(cd "$scratch" && "$jar_tool" xf "$jar" "$services")
if ! grep -q '^io.duetdb.spark.DuetDataSource$' "$scratch/$services" 2>/dev/null; then
  echo "error: $jar does not register io.duetdb.spark.DuetDataSource in $services" >&2
  exit 1
fi
echo "connector jar: $(grep -c '\.class$' <<<"$entries") classes, all under io/duetdb/spark/"
