package dev.lomicontrol.pairing;

import dev.lomicontrol.core.ErrorCode;
import dev.lomicontrol.core.LomiException;
import java.util.ArrayList;
import java.util.Collection;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.regex.Pattern;

/**
 * The Android part of a grant, as the reference's scope table has it: the devices the android.*
 * tools may reach — 1 to {@value #MAX_DEVICES} adb serials or AVD names, or every device
 * ({@code allDevices}: YOLO's all_devices) — and the app packages lomi_android_launch and
 * lomi_android_logcat may name — 1 to {@value #MAX_PACKAGES}, or every package. An AVD granted by
 * name covers the emulator serial it runs as (lomi_android_list maps emulator serials to their AVD).
 * A grant without Android scopes holds {@link #NONE}.
 */
public record AndroidGrant(boolean allDevices, Set<String> devices, boolean allPackages, Set<String> packages) {

    public static final int MAX_DEVICES = 16;
    public static final int MAX_PACKAGES = 16;

    /** No device, no package. */
    public static final AndroidGrant NONE = new AndroidGrant(false, Set.of(), false, Set.of());

    /** Every device and package (YOLO's full grant). */
    public static final AndroidGrant EVERYTHING = new AndroidGrant(true, Set.of(), true, Set.of());

    /** An adb serial ({@code emulator-5554}, {@code 127.0.0.1:5555}, {@code R58M…}, an mDNS name) or an AVD name. */
    private static final Pattern DEVICE = Pattern.compile("[A-Za-z0-9._:@\\[\\]-]{1,128}");

    /** An Android package name (the same form lomi_android_launch and lomi_android_logcat accept). */
    private static final Pattern PACKAGE = Pattern.compile("[A-Za-z][A-Za-z0-9_]*(?:\\.[A-Za-z][A-Za-z0-9_]*)+");

    /** The scopes whose tools reach no device: a grant whose Android scopes are only these needs none. */
    private static final Set<String> DEVICELESS = Set.of("android.read", "android.setup", "android.manage");

    /** The scopes whose tools name an app package. */
    private static final Set<String> NAMING_PACKAGES = Set.of("android.launch", "android.logs");

    public AndroidGrant {
        devices = Set.copyOf(devices);
        packages = Set.copyOf(packages);
    }

    /** Whether the device with adb serial {@code serial} (when attached) running AVD {@code avd} (when one) is granted. */
    public boolean coversDevice(Optional<String> serial, Optional<String> avd) {
        return allDevices
                || serial.filter(devices::contains).isPresent()
                || avd.filter(devices::contains).isPresent();
    }

    public boolean coversPackage(String packageName) {
        return allPackages || packages.contains(packageName);
    }

    /**
     * The admin's selection for a grant of {@code scopes}, checked as the reference's approval checks
     * it: every android.* scope except android.setup and android.manage (with the android.read they
     * need) needs 1-16 devices; android.launch or android.logs needs 1-16 packages; devices or
     * packages without the scopes that use them, more than 16, or a malformed name are refused.
     * INVALID_ARGUMENT lists every problem.
     */
    public static AndroidGrant select(Set<String> scopes, Collection<String> devices, Collection<String> packages) {
        Set<String> namedDevices = new LinkedHashSet<>(devices);
        Set<String> namedPackages = new LinkedHashSet<>(packages);
        List<String> android =
                scopes.stream().filter(s -> s.startsWith("android.")).sorted().toList();
        boolean needsDevices = !android.isEmpty()
                && !(DEVICELESS.containsAll(android)
                        && (android.contains("android.setup") || android.contains("android.manage")));
        List<String> usingPackages =
                android.stream().filter(NAMING_PACKAGES::contains).toList();
        List<String> problems = new ArrayList<>();
        if (needsDevices && namedDevices.isEmpty()) {
            problems.add(String.join(", ", android) + " need 1-" + MAX_DEVICES
                    + " Android devices (adb serials or AVD names: --android-devices)");
        }
        if (android.isEmpty() && !namedDevices.isEmpty()) {
            problems.add("Android devices are granted with android.* scopes, and the grant holds none");
        }
        if (!usingPackages.isEmpty() && namedPackages.isEmpty()) {
            problems.add(String.join(", ", usingPackages) + " need 1-" + MAX_PACKAGES
                    + " Android packages (--android-packages)");
        }
        if (usingPackages.isEmpty() && !namedPackages.isEmpty()) {
            problems.add("Android packages are granted with android.launch or android.logs, and the grant holds"
                    + " neither");
        }
        checkNames(namedDevices, namedPackages, problems);
        return namedDevices.isEmpty() && namedPackages.isEmpty()
                ? NONE
                : new AndroidGrant(false, namedDevices, false, namedPackages);
    }

    /**
     * The Android part of the full default grant (a flagless {@code pairing approve}, which holds
     * every android.* scope): every device unless {@code devices} names some, every package unless
     * {@code packages} names some. Names are checked as {@link #select} checks them (INVALID_ARGUMENT).
     */
    public static AndroidGrant fullGrant(Collection<String> devices, Collection<String> packages) {
        Set<String> namedDevices = new LinkedHashSet<>(devices);
        Set<String> namedPackages = new LinkedHashSet<>(packages);
        checkNames(namedDevices, namedPackages, new ArrayList<>());
        return new AndroidGrant(namedDevices.isEmpty(), namedDevices, namedPackages.isEmpty(), namedPackages);
    }

    /** Adds what is wrong with the named devices and packages to {@code problems}; INVALID_ARGUMENT lists them all. */
    private static void checkNames(Set<String> namedDevices, Set<String> namedPackages, List<String> problems) {
        if (namedDevices.size() > MAX_DEVICES) {
            problems.add(
                    "a grant names at most " + MAX_DEVICES + " Android devices (" + namedDevices.size() + " given)");
        }
        namedDevices.stream()
                .filter(d -> !DEVICE.matcher(d).matches())
                .forEach(d -> problems.add("not an adb serial or AVD name: '" + d + "'"));
        if (namedPackages.size() > MAX_PACKAGES) {
            problems.add(
                    "a grant names at most " + MAX_PACKAGES + " Android packages (" + namedPackages.size() + " given)");
        }
        namedPackages.stream()
                .filter(p -> p.length() > 255 || !PACKAGE.matcher(p).matches())
                .forEach(p -> problems.add("not an Android package name: '" + p + "'"));
        if (!problems.isEmpty()) {
            throw new LomiException(ErrorCode.INVALID_ARGUMENT, String.join("; ", problems));
        }
    }
}
