/**
 * The Android device bridge (issue 42's foundation): a client of the user's own adb server over its
 * documented smart-socket protocol on 127.0.0.1 ({@code ANDROID_ADB_SERVER_PORT}, default 5037) —
 * the server's version, the live device list with states, {@code shell,v2:} with the exit status,
 * binary-clean {@code exec:}, and {@code sync:} pushes — started with {@code adb start-server} (argv
 * only) when nothing listens. Every call is bounded in time ({@link dev.lomicontrol.android.AdbTimeouts});
 * every shell string built from agent text goes through {@link dev.lomicontrol.android.ShellQuote}.
 * A plain library: it sees {@code dev.lomicontrol.core} and the JDK only. Public entry point:
 * {@link dev.lomicontrol.android.AdbBridge}; over it, the engines the tools call: ordered input
 * ({@link dev.lomicontrol.android.DeviceInputs}), launch ({@link dev.lomicontrol.android.AppLauncher}),
 * install ({@link dev.lomicontrol.android.ApkInstaller}) and the emulator lifecycle
 * ({@link dev.lomicontrol.android.Emulators}).
 */
@NullMarked
package dev.lomicontrol.android;

import org.jspecify.annotations.NullMarked;
