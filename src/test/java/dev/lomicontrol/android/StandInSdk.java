package dev.lomicontrol.android;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.stream.Stream;

/**
 * A temporary Android SDK whose {@code cmdline-tools/latest/bin/sdkmanager} and {@code avdmanager}
 * are stand-in shell scripts that answer like the real ones and write real-format files: the catalog
 * {@code --list} prints is {@code <dir>/catalog} ({@code id|revision|description} lines); the
 * licences it asks about are {@code <dir>/offered/<id>} (the text), accepted by writing the text's
 * SHA-1 to {@code <sdk>/licenses/<id>} as sdkmanager does when answered {@code y}; {@code --install}
 * refuses while an offered licence is not accepted, else writes each package's {@code package.xml};
 * {@code avdmanager create avd} asks its custom-hardware question and writes {@code <NAME>.ini} and
 * {@code NAME.avd/config.ini} in {@code ANDROID_AVD_HOME}; {@code delete avd} removes them. Each run
 * appends its argv to {@code <dir>/argv}. Also a stand-in {@code platform-tools/adb} and
 * {@code emulator/emulator} that do nothing, so the SDK is complete.
 */
public final class StandInSdk {

    final Path dir;
    final Path sdk;
    final Path avdHome;

    private static final String SDKMANAGER = """
            #!/bin/sh
            D='%1$s'
            echo "sdkmanager $*" >> "$D/argv"
            SDK=''; MODE=''; IDS=''
            for a in "$@"; do
              case "$a" in
                --sdk_root=*) SDK="${a#--sdk_root=}" ;;
                --list) MODE=list ;; --licenses) MODE=licenses ;; --install) MODE=install ;;
                *) IDS="$IDS $a" ;;
              esac
            done
            accept() {
              for f in "$D"/offered/*; do
                [ -f "$f" ] || continue
                id=$(basename "$f"); sum=$(sha1sum < "$f" | cut -d' ' -f1)
                grep -q "$sum" "$SDK/licenses/$id" 2>/dev/null && continue
                printf 'License %%s:\\n---------------------------------------\\n' "$id"
                cat "$f"; printf '\\n---------------------------------------\\nAccept? (y/N): '
                read ans
                if [ "$ans" = y ]; then mkdir -p "$SDK/licenses"; printf '\\n%%s' "$sum" >> "$SDK/licenses/$id"; fi
              done
            }
            case "$MODE" in
              list)
                echo 'Installed packages:'; echo
                echo 'Available Packages:'
                echo '  Path | Version | Description'
                echo '  ------- | ------- | -------'
                while IFS='|' read -r id rev desc; do echo "  $id | $rev | $desc"; done < "$D/catalog"
                echo ;;
              licenses)
                printf 'Review licenses that have not been accepted (y/N)? '; read ans
                [ "$ans" = y ] && accept
                echo ;;
              install)
                [ -p "$D/gate" ] && read _ < "$D/gate"
                accept
                for f in "$D"/offered/*; do
                  [ -f "$f" ] || continue
                  sum=$(sha1sum < "$f" | cut -d' ' -f1)
                  grep -q "$sum" "$SDK/licenses/$(basename "$f")" 2>/dev/null || { echo 'Licences not accepted'; exit 1; }
                done
                for id in $IDS; do
                  rev=$(grep "^$id|" "$D/catalog" | cut -d'|' -f2)
                  path=$(echo "$id" | tr ';' '/'); mkdir -p "$SDK/$path"
                  major=${rev%%%%.*}
                  printf '<?xml version="1.0" encoding="UTF-8" standalone="yes"?>\\n<ns2:repository xmlns:ns2="http://schemas.android.com/repository/android/common/02"><localPackage path="%%s" obsolete="false"><revision><major>%%s</major></revision><display-name>%%s</display-name></localPackage></ns2:repository>\\n' "$id" "$major" "$id" > "$SDK/$path/package.xml"
                  echo "Installed $id"
                done ;;
            esac
            """;

    private static final String AVDMANAGER = """
            #!/bin/sh
            D='%1$s'
            echo "avdmanager $*" >> "$D/argv"
            NAME=''; IMAGE=''; DEVICE=''; AVDPATH=''
            verb="$1 $2"; shift 2
            while [ $# -gt 0 ]; do
              case "$1" in -n) NAME="$2" ;; -k) IMAGE="$2" ;; -d) DEVICE="$2" ;; -p) AVDPATH="$2" ;; esac
              shift 2
            done
            case "$verb" in
              'create avd')
                printf 'Do you wish to create a custom hardware profile? [no] '; read ans
                [ -n "$AVDPATH" ] || AVDPATH="$ANDROID_AVD_HOME/$NAME.avd"
                mkdir -p "$AVDPATH"
                printf 'avd.ini.encoding=UTF-8\\npath=%%s\\npath.rel=avd/%%s.avd\\ntarget=android-34\\n' "$AVDPATH" "$NAME" > "$ANDROID_AVD_HOME/$NAME.ini"
                printf 'AvdId=%%s\\nPlayStore.enabled=false\\nabi.type=x86_64\\navd.ini.displayname=%%s\\nhw.device.name=%%s\\nhw.ramSize=2048\\nimage.sysdir.1=%%s/\\n' "$NAME" "$NAME" "$DEVICE" "$(echo "$IMAGE" | tr ';' '/')" > "$AVDPATH/config.ini"
                echo ;;
              'delete avd')
                [ -f "$ANDROID_AVD_HOME/$NAME.ini" ] || { echo "Error: There is no Android Virtual Device named '$NAME'."; exit 1; }
                rm -rf "$ANDROID_AVD_HOME/$NAME.avd" "$ANDROID_AVD_HOME/$NAME.ini"
                echo "AVD '$NAME' deleted." ;;
              *) echo "Error: unknown verb $verb"; exit 1 ;;
            esac
            """;

    public StandInSdk(Path root) throws IOException {
        this.dir = Files.createDirectories(root.resolve("standin"));
        this.sdk = Files.createDirectories(root.resolve("sdk"));
        this.avdHome = Files.createDirectories(root.resolve("avd"));
        Files.createDirectories(dir.resolve("offered"));
        Files.writeString(dir.resolve("catalog"), "");
        script(sdk.resolve("cmdline-tools/latest/bin/sdkmanager"), String.format(SDKMANAGER, dir));
        script(sdk.resolve("cmdline-tools/latest/bin/avdmanager"), String.format(AVDMANAGER, dir));
        script(sdk.resolve("platform-tools/adb"), "#!/bin/sh\nexit 0\n");
        script(sdk.resolve("emulator/emulator"), "#!/bin/sh\nexit 0\n");
    }

    /** A host probe of this SDK (and a KVM device that is a file this user can open). */
    dev.lomicontrol.tools.HostProbe probe(Path home) throws IOException {
        Path kvm = home.resolve("kvm");
        if (!Files.exists(kvm)) {
            Files.writeString(kvm, "");
        }
        return new dev.lomicontrol.tools.HostProbe(Map.of("ANDROID_HOME", sdk.toString()), Optional.empty(), home, kvm);
    }

    /** What sdkmanager --list offers from now on. */
    void catalog(String... lines) throws IOException {
        Files.writeString(dir.resolve("catalog"), String.join("\n", lines) + "\n");
    }

    /** From now on, sdkmanager --install waits until a line is written to the returned named pipe. */
    Path gate() throws IOException, InterruptedException {
        Path gate = dir.resolve("gate");
        if (new ProcessBuilder("mkfifo", gate.toString()).inheritIO().start().waitFor() != 0) {
            throw new IOException("mkfifo " + gate + " failed");
        }
        return gate;
    }

    /** A licence sdkmanager asks about until it is accepted. */
    void offers(String id, String text) throws IOException {
        Files.writeString(dir.resolve("offered").resolve(id), text);
    }

    /** An installed package, as the SDK's own package.xml says. */
    void installed(String id, String major) throws IOException {
        Path folder = Files.createDirectories(sdk.resolve(id.replace(';', '/')));
        Files.writeString(
                folder.resolve("package.xml"),
                "<?xml version=\"1.0\" encoding=\"UTF-8\" standalone=\"yes\"?>\n"
                        + "<ns2:repository xmlns:ns2=\"http://schemas.android.com/repository/android/common/02\">"
                        + "<localPackage path=\"" + id + "\" obsolete=\"false\"><revision><major>" + major
                        + "</major></revision></localPackage></ns2:repository>\n");
    }

    /** The argv lines the stand-ins recorded, in order. */
    List<String> argv() throws IOException {
        Path argv = dir.resolve("argv");
        return Files.exists(argv) ? Files.readAllLines(argv) : List.of();
    }

    /** The file names in the SDK's licenses folder. */
    List<String> licenseFiles() throws IOException {
        Path licenses = sdk.resolve("licenses");
        if (!Files.isDirectory(licenses)) {
            return List.of();
        }
        try (Stream<Path> files = Files.list(licenses)) {
            return files.map(f -> f.getFileName().toString()).sorted().toList();
        }
    }

    private static void script(Path path, String text) throws IOException {
        Files.createDirectories(path.getParent());
        Files.writeString(path, text, StandardCharsets.UTF_8);
        Files.setPosixFilePermissions(path, PosixFilePermissions.fromString("rwxr-xr-x"));
    }
}
