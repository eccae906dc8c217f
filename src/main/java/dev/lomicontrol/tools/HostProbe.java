package dev.lomicontrol.tools;

import java.io.File;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.EnumMap;
import java.util.EnumSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * Where this host's external programs are, found with a few file checks against an environment:
 * the one probe behind {@link HostQualification} (what the broker answers HOST_UNQUALIFIED with)
 * and behind the toolsets {@code client register} writes ({@link #toolsets}). Nothing is cached: a
 * program installed later is found by the next probe.
 *
 * @param environment the variables it reads: {@code LOMI_BROWSER_EXECUTABLE}, {@code ANDROID_HOME},
 *     {@code ANDROID_SDK_ROOT}, {@code PATH}
 * @param browserSetting the {@code lomi.browser.executable} setting (system property), which wins
 *     over {@code LOMI_BROWSER_EXECUTABLE}; empty when unset
 * @param home the user's home directory ({@code ~/Android/Sdk} is Android Studio's default SDK)
 * @param kvm the KVM device the Android emulator needs ({@code /dev/kvm})
 */
public record HostProbe(Map<String, String> environment, Optional<String> browserSetting, Path home, Path kvm) {

    /** The Chromium executables looked for when none is configured, in order. */
    static final List<Path> BROWSERS =
            List.of(Path.of("/usr/bin/chromium-headless-shell"), Path.of("/usr/bin/chromium"));

    public HostProbe {
        environment = Map.copyOf(environment);
    }

    /** A host whose KVM device is {@code /dev/kvm}. */
    public HostProbe(Map<String, String> environment, Optional<String> browserSetting, Path home) {
        this(environment, browserSetting, home, Path.of("/dev/kvm"));
    }

    /** This process's host: its environment, the {@code lomi.browser.executable} system property and {@code user.home}. */
    public static HostProbe current() {
        return new HostProbe(
                System.getenv(),
                Optional.ofNullable(System.getProperty("lomi.browser.executable")),
                Path.of(System.getProperty("user.home", "/")));
    }

    /** The configured Chromium, if any: {@code lomi.browser.executable}, else {@code LOMI_BROWSER_EXECUTABLE}. */
    public Optional<String> configuredBrowser() {
        return browserSetting
                .filter(value -> !value.isBlank())
                .or(() -> Optional.ofNullable(environment.get("LOMI_BROWSER_EXECUTABLE"))
                        .filter(value -> !value.isBlank()));
    }

    /** The configured Chromium when it is an executable file; without one configured, the first of {@link #BROWSERS} installed. */
    public Optional<Path> browserExecutable() {
        Optional<String> configured = configuredBrowser();
        if (configured.isPresent()) {
            Path path = Path.of(configured.get());
            return Files.isExecutable(path) ? Optional.of(path) : Optional.empty();
        }
        return BROWSERS.stream().filter(Files::isExecutable).findFirst();
    }

    /** The Android SDK's {@code adb}: {@link #sdkTool}{@code ("platform-tools/adb", "adb")}. */
    public Optional<Path> adb() {
        return sdkTool("platform-tools/adb", "adb");
    }

    /**
     * An executable of the Android SDK: {@code inSdk} under {@code $ANDROID_HOME}, then
     * {@code $ANDROID_SDK_ROOT}, then {@code ~/Android/Sdk}; else {@code onPath} in a directory of
     * {@code $PATH}. Empty when none of them is an executable file.
     */
    public Optional<Path> sdkTool(String inSdk, String onPath) {
        for (String variable : List.of("ANDROID_HOME", "ANDROID_SDK_ROOT")) {
            String sdk = environment.get(variable);
            if (sdk != null && !sdk.isBlank() && Files.isExecutable(Path.of(sdk, inSdk))) {
                return Optional.of(Path.of(sdk, inSdk));
            }
        }
        Path studio = home.resolve("Android").resolve("Sdk").resolve(inSdk);
        if (Files.isExecutable(studio)) {
            return Optional.of(studio);
        }
        return findOnPath(onPath);
    }

    /**
     * The Android SDK's root: the first of {@code $ANDROID_HOME}, {@code $ANDROID_SDK_ROOT} and
     * {@code ~/Android/Sdk} that is a directory.
     */
    public Optional<Path> sdkRoot() {
        for (String variable : List.of("ANDROID_HOME", "ANDROID_SDK_ROOT")) {
            String sdk = environment.get(variable);
            if (sdk != null && !sdk.isBlank() && Files.isDirectory(Path.of(sdk))) {
                return Optional.of(Path.of(sdk));
            }
        }
        Path studio = home.resolve("Android").resolve("Sdk");
        return Files.isDirectory(studio) ? Optional.of(studio) : Optional.empty();
    }

    /** The SDK's emulator: {@code <sdk>/emulator/emulator}, else {@code emulator} on the PATH. */
    public Optional<Path> emulator() {
        return sdkTool("emulator/emulator", "emulator");
    }

    /**
     * A command-line tool of the SDK ({@code avdmanager}, {@code sdkmanager}):
     * {@code <sdk>/cmdline-tools/latest/bin/<name>}, then any other {@code cmdline-tools/<version>/bin/<name>}
     * (newest name first), then the legacy {@code <sdk>/tools/bin/<name>}, else {@code name} on the PATH.
     */
    public Optional<Path> cmdlineTool(String name) {
        Optional<Path> sdk = sdkRoot();
        if (sdk.isPresent()) {
            Path tools = sdk.get().resolve("cmdline-tools");
            List<Path> candidates = new java.util.ArrayList<>();
            candidates.add(tools.resolve("latest").resolve("bin").resolve(name));
            try (java.util.stream.Stream<Path> versions =
                    Files.isDirectory(tools) ? Files.list(tools) : java.util.stream.Stream.empty()) {
                versions.sorted(java.util.Comparator.reverseOrder())
                        .forEach(
                                version -> candidates.add(version.resolve("bin").resolve(name)));
            } catch (java.io.IOException unreadable) {
                // an unreadable cmdline-tools folder holds nothing we can run
            }
            candidates.add(sdk.get().resolve("tools").resolve("bin").resolve(name));
            for (Path candidate : candidates) {
                if (Files.isExecutable(candidate)) {
                    return Optional.of(candidate);
                }
            }
        }
        return findOnPath(name);
    }

    /** Why the emulator cannot use KVM here ({@link #kvm} absent, or not readable and writable by this user); empty when it can. */
    public Optional<String> kvmProblem() {
        if (!Files.exists(kvm)) {
            return Optional.of(kvm + " is absent (no hardware virtualisation for the emulator)");
        }
        if (!Files.isReadable(kvm) || !Files.isWritable(kvm)) {
            return Optional.of(kvm + " is not readable and writable by this user (add the user to the kvm group)");
        }
        return Optional.empty();
    }

    private Optional<Path> findOnPath(String name) {
        String path = environment.get("PATH");
        for (String dir : path == null ? new String[0] : path.split(File.pathSeparator)) {
            if (!dir.isEmpty() && Files.isExecutable(Path.of(dir, name))) {
                return Optional.of(Path.of(dir, name));
            }
        }
        return Optional.empty();
    }

    /**
     * The toolsets that can work on this host: every one but those {@link #leftOut} names; writes
     * allowed.
     */
    public ToolSelection toolsets() {
        EnumSet<Toolset> toolsets = EnumSet.allOf(Toolset.class);
        toolsets.removeAll(leftOut().keySet());
        return new ToolSelection(toolsets, false);
    }

    /**
     * The toolsets none of whose tools can work on this host, each with the reason:
     * {@link Toolset#BROWSER} when no Chromium is found ({@link #browserExecutable}), and
     * {@link Toolset#ANDROID} when no {@code adb} is ({@link #adb}: every Android tool but the SDK
     * setup ones reaches devices through it).
     */
    public Map<Toolset, String> leftOut() {
        Map<Toolset, String> leftOut = new EnumMap<>(Toolset.class);
        if (browserExecutable().isEmpty()) {
            leftOut.put(Toolset.BROWSER, "no Chromium found");
        }
        if (adb().isEmpty()) {
            leftOut.put(Toolset.ANDROID, "no adb found");
        }
        return leftOut;
    }
}
