package dev.lomicontrol.android.tools;

import dev.lomicontrol.android.AndroidDevices;
import dev.lomicontrol.android.AvdDirectory;
import dev.lomicontrol.android.SdkProcess;
import dev.lomicontrol.core.ErrorCode;
import dev.lomicontrol.core.LomiException;
import dev.lomicontrol.tools.HostProbe;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.function.Supplier;

/**
 * The user's Android SDK as the dispatch's host probe finds it (a test's stand-in SDK in tests): its
 * root, its {@code sdkmanager} and {@code avdmanager} ({@code cmdline-tools/latest/bin/…} first), and
 * the AVD home of the devices. Both tools run argv-only ({@link SdkProcess}) with
 * {@code ANDROID_HOME}/{@code ANDROID_SDK_ROOT} set to that root and {@code ANDROID_AVD_HOME} to
 * that AVD home, so they change exactly what the tools read. Probed per call.
 */
final class AndroidSdk {

    private final Supplier<HostProbe> host;
    private final Supplier<AndroidDevices> devices;

    AndroidSdk(Supplier<HostProbe> host, Supplier<AndroidDevices> devices) {
        this.host = host;
        this.devices = devices;
    }

    /** The SDK root; HOST_UNQUALIFIED naming where it was looked for. */
    Path root() {
        return host.get()
                .sdkRoot()
                .orElseThrow(() -> new LomiException(
                        ErrorCode.HOST_UNQUALIFIED,
                        "no Android SDK was found ($ANDROID_HOME, $ANDROID_SDK_ROOT, ~/Android/Sdk); install the"
                                + " command-line tools (docs/OPERATIONS.md) and set ANDROID_HOME"));
    }

    HostProbe probe() {
        return host.get();
    }

    AvdDirectory avds() {
        return devices.get().avds();
    }

    AndroidDevices devices() {
        return devices.get();
    }

    /** Runs {@code sdkmanager --sdk_root=<root> args…}. */
    SdkProcess.Result sdkmanager(List<String> args, Duration deadline, SdkProcess.Prompts prompts) {
        return run("sdkmanager", List.of("--sdk_root=" + root()), args, deadline, prompts);
    }

    /** Runs {@code avdmanager args…}. */
    SdkProcess.Result avdmanager(List<String> args, Duration deadline, SdkProcess.Prompts prompts) {
        return run("avdmanager", List.of(), args, deadline, prompts);
    }

    private SdkProcess.Result run(
            String tool, List<String> first, List<String> args, Duration deadline, SdkProcess.Prompts prompts) {
        Path root = root();
        Path executable = host.get()
                .cmdlineTool(tool)
                .orElseThrow(() -> new LomiException(
                        ErrorCode.HOST_UNQUALIFIED,
                        tool + " was not found (" + root + "/cmdline-tools/latest/bin/" + tool
                                + "); install the SDK's command-line tools (docs/OPERATIONS.md)"));
        List<String> argv = new ArrayList<>();
        argv.add(executable.toString());
        argv.addAll(args);
        argv.addAll(first);
        return SdkProcess.run(
                argv,
                Map.of(
                        "ANDROID_HOME", root.toString(),
                        "ANDROID_SDK_ROOT", root.toString(),
                        "ANDROID_AVD_HOME", avds().home().toString()),
                deadline,
                prompts);
    }

    /** A tool's failure: its exit status and the last lines it printed. */
    static String tail(SdkProcess.Result result) {
        String[] lines = result.output().strip().split("\r?\n");
        int from = Math.max(0, lines.length - 6);
        return "exit " + result.exit() + ": "
                + String.join(" / ", java.util.Arrays.asList(lines).subList(from, lines.length));
    }
}
