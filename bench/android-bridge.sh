#!/usr/bin/env bash
# The device bridge's round trip (ADR 0020): shell,v2 "echo x" through the real adb server to the test
# device (FakeAdbd), N times through our AdbBridge and through dev.mobile:dadb's AdbServer mode, plus
# the adb CLI for scale. Needs adb, a test-compiled tree (./mvnw -o test-compile) and network access
# once to fetch dadb (mvn dependency:get). Usage: bash bench/android-bridge.sh [N=200]
set -euo pipefail
cd "$(dirname "$0")/.."
n="${1:-200}"
work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT
cat > "$work/pom.xml" <<'POM'
<project xmlns="http://maven.apache.org/POM/4.0.0"><modelVersion>4.0.0</modelVersion>
<groupId>bench</groupId><artifactId>dadb-probe</artifactId><version>1</version>
<dependencies><dependency><groupId>dev.mobile</groupId><artifactId>dadb</artifactId><version>1.2.10</version></dependency>
<!-- Maven alone resolves kotlin-stdlib 1.4.20 (through okio, nearest wins) and dadb then fails with
     NoClassDefFoundError kotlin/jdk7/AutoCloseableKt: pin the stdlib of dadb's own Kotlin BOM -->
<dependency><groupId>org.jetbrains.kotlin</groupId><artifactId>kotlin-stdlib</artifactId><version>1.9.20</version></dependency></dependencies></project>
POM
(cd "$work" && "$OLDPWD/mvnw" -B -q dependency:build-classpath -Dmdep.outputFile="$work/cp.txt" >/dev/null)
echo "dadb and what it brings (its Kotlin stdlib pinned to 1.9.20):"
tr ':' '\n' < "$work/cp.txt" | while read -r jar; do printf '  %9d  %s\n' "$(stat -c %s "$jar")" "$(basename "$jar")"; done
cp="target/classes:target/test-classes:$(cat "$work/cp.txt")"
javac -nowarn -d "$work/classes" -cp "$cp" bench/android/BridgeBench.java
java -cp "$work/classes:$cp" dev.lomicontrol.android.BridgeBench "$n"
