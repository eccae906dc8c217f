package dev.lomicontrol.android.tools;

import dev.lomicontrol.android.AvdDirectory;
import dev.lomicontrol.android.AvdFiles;
import dev.lomicontrol.android.SdkManagerOutput;
import dev.lomicontrol.android.SdkPackages;
import dev.lomicontrol.android.SdkProcess;
import dev.lomicontrol.android.api.AndroidInputs;
import dev.lomicontrol.android.api.AndroidInputs.PackageSelection;
import dev.lomicontrol.android.api.AndroidResults;
import dev.lomicontrol.android.api.AndroidSpecs;
import dev.lomicontrol.core.ErrorCode;
import dev.lomicontrol.core.Ids;
import dev.lomicontrol.core.LomiException;
import dev.lomicontrol.operations.WorkspaceAccess;
import dev.lomicontrol.pairing.Session;
import java.security.SecureRandom;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;

/**
 * lomi_android_setup_plan. {@code inventory}: the SDK's installed packages ({@link SdkPackages},
 * offline: no tool runs) and the AVDs ({@link AndroidManagedDevices}); {@code hostQualified} says the
 * SDK's emulator is installed and KVM usable. {@code catalog}: what {@code sdkmanager --list} offers
 * (run within {@link #LIST_DEADLINE}, kept until a {@code refresh}), paged, with a
 * {@code catalogRevision} digest of the whole listing; another {@code expectedCatalogRevision} is
 * REVISION_CONFLICT. {@code prepare}: a plan for exact packages of that catalog (another
 * {@code catalogRevision}: REVISION_CONFLICT), with every licence sdkmanager has not had accepted —
 * shown by {@code sdkmanager --licenses}, whose every question is answered {@code n}, so nothing is
 * accepted — as its SHA-256 and first lines; the plan lives {@link #PLAN_LIFETIME} for
 * lomi_android_setup_apply ({@link AndroidSetupApply}).
 */
final class AndroidSetupPlans {

    static final Duration LIST_DEADLINE = Duration.ofSeconds(120);
    static final Duration LICENSES_DEADLINE = Duration.ofSeconds(60);
    static final Duration PLAN_LIFETIME = Duration.ofMinutes(30);
    /** The licence lines a plan shows (the digest covers the whole text). */
    static final int LICENSE_LINES = 8;
    /** The tools prepareTools adds when they are not installed. */
    static final List<String> TOOLS = List.of("platform-tools", "emulator", "cmdline-tools;latest");

    /** A prepared plan, for lomi_android_setup_apply. */
    record Plan(
            String owner,
            String id,
            String revision,
            List<PackageSelection> packages,
            List<SdkManagerOutput.License> licenses,
            Instant expires) {}

    record Catalog(String revision, List<SdkManagerOutput.Entry> entries) {}

    private final WorkspaceAccess access;
    private final AndroidSdk sdk;
    private final Clock clock;
    private final SecureRandom random = new SecureRandom();
    private final Map<String, Plan> plans = new ConcurrentHashMap<>();
    private volatile Optional<Catalog> catalog = Optional.empty();

    AndroidSetupPlans(WorkspaceAccess access, AndroidSdk sdk, Clock clock) {
        this.access = access;
        this.sdk = sdk;
        this.clock = clock;
    }

    AndroidResults.Setup plan(Session session, AndroidSpecs.SetupPlanInput in) {
        access.resolve(session, in.workspaceId());
        AndroidResults.SetupView view;
        if (in.action() instanceof AndroidInputs.Catalog query) {
            view = catalog(query);
        } else if (in.action() instanceof AndroidInputs.Prepare prepare) {
            view = prepare(session, prepare);
        } else {
            view = inventory();
        }
        return new AndroidResults.Setup(in.workspaceId(), view);
    }

    AndroidResults.InventoryView inventory() {
        List<SdkPackages.Installed> installed = SdkPackages.installed(sdk.root());
        AvdDirectory avds = sdk.avds();
        List<PackageSelection> packages = new ArrayList<>();
        installed.forEach(p -> packages.add(new PackageSelection(p.id(), p.revision())));
        boolean qualified =
                sdk.probe().emulator().isPresent() && sdk.probe().kvmProblem().isEmpty();
        return new AndroidResults.InventoryView(
                Optional.of(AvdFiles.revision(avds)),
                Optional.of(SdkPackages.revision(installed)),
                qualified,
                AndroidManagedDevices.of(avds, installed),
                List.copyOf(packages),
                List.of(),
                false,
                List.of(),
                List.of());
    }

    private AndroidResults.CatalogView catalog(AndroidInputs.Catalog query) {
        Catalog now = query.refresh() ? listed() : catalog.orElseGet(this::listed);
        if (query.expectedCatalogRevision().isPresent()
                && !query.expectedCatalogRevision().get().value().equals(now.revision())) {
            throw new LomiException(
                    ErrorCode.REVISION_CONFLICT,
                    "the catalog is at revision " + now.revision() + ", not "
                            + query.expectedCatalogRevision().get() + "; read it again from offset 0");
        }
        int from = (int) Math.min(query.offset(), now.entries().size());
        int to = Math.min(now.entries().size(), from + query.limit());
        List<AndroidResults.Download> page = new ArrayList<>();
        for (SdkManagerOutput.Entry entry : now.entries().subList(from, to)) {
            page.add(download(entry));
        }
        return new AndroidResults.CatalogView(
                now.revision(),
                List.copyOf(page),
                to < now.entries().size() ? Optional.of((long) to) : Optional.empty());
    }

    private static AndroidResults.Download download(SdkManagerOutput.Entry entry) {
        return new AndroidResults.Download(
                entry.id(), entry.revision(), entry.description(), "", 0, "", Optional.empty(), List.of());
    }

    /** Runs {@code sdkmanager --list} and keeps what it offers. */
    private Catalog listed() {
        SdkProcess.Result result = sdk.sdkmanager(List.of("--list"), LIST_DEADLINE, output -> Optional.empty());
        if (result.exit() != 0) {
            throw new LomiException(
                    ErrorCode.HOST_UNQUALIFIED,
                    "sdkmanager --list failed (" + AndroidSdk.tail(result) + "); check its network access");
        }
        List<SdkManagerOutput.Entry> entries = SdkManagerOutput.available(result.output());
        StringBuilder text = new StringBuilder();
        entries.forEach(e -> text.append(e.id())
                .append('\t')
                .append(e.revision())
                .append('\t')
                .append(e.description())
                .append('\n'));
        Catalog listed = new Catalog(SdkPackages.sha256(text.toString()).substring(0, 16), entries);
        catalog = Optional.of(listed);
        return listed;
    }

    private AndroidResults.PreparedView prepare(Session session, AndroidInputs.Prepare prepare) {
        Catalog now = catalog.orElseThrow(() -> new LomiException(
                ErrorCode.REVISION_CONFLICT,
                "no catalog was read since the broker started; read it (action catalog) and prepare with its"
                        + " catalogRevision"));
        if (!now.revision().equals(prepare.catalogRevision().value())) {
            throw new LomiException(
                    ErrorCode.REVISION_CONFLICT,
                    "the catalog is at revision " + now.revision() + ", not " + prepare.catalogRevision()
                            + "; read it again (action catalog) and prepare from what it lists");
        }
        Map<String, SdkManagerOutput.Entry> offered = new LinkedHashMap<>();
        now.entries().forEach(e -> offered.putIfAbsent(e.id(), e));
        Map<String, PackageSelection> wanted = new LinkedHashMap<>();
        for (PackageSelection selection : prepare.packages()) {
            SdkManagerOutput.Entry entry = offered.get(selection.id());
            if (entry == null) {
                throw new LomiException(ErrorCode.TARGET_NOT_FOUND, "the catalog offers no package " + selection.id());
            }
            if (!entry.revision().equals(selection.revision())) {
                throw new LomiException(
                        ErrorCode.REVISION_CONFLICT,
                        "the catalog offers " + selection.id() + " at revision " + entry.revision() + ", not "
                                + selection.revision() + " (sdkmanager installs the revision it offers)");
            }
            wanted.put(selection.id(), selection);
        }
        if (prepare.prepareTools()) {
            List<String> installed = SdkPackages.installed(sdk.root()).stream()
                    .map(SdkPackages.Installed::id)
                    .toList();
            for (String tool : TOOLS) {
                SdkManagerOutput.Entry entry = offered.get(tool);
                if (!installed.contains(tool) && entry != null) {
                    wanted.putIfAbsent(tool, new PackageSelection(tool, entry.revision()));
                }
            }
        }
        if (wanted.isEmpty()) {
            throw new LomiException(
                    ErrorCode.INVALID_ARGUMENT, "the plan would install nothing: name packages or set prepareTools");
        }
        List<SdkManagerOutput.License> licenses = licenses();
        List<AndroidResults.Download> downloads = new ArrayList<>();
        StringBuilder text = new StringBuilder();
        for (PackageSelection p : wanted.values()) {
            downloads.add(download(new SdkManagerOutput.Entry(
                    p.id(),
                    p.revision(),
                    Optional.ofNullable(offered.get(p.id()))
                            .map(SdkManagerOutput.Entry::description)
                            .orElse(""))));
            text.append(p.id()).append('\t').append(p.revision()).append('\n');
        }
        List<AndroidResults.License> shown = new ArrayList<>();
        for (SdkManagerOutput.License license : licenses) {
            shown.add(new AndroidResults.License(license.id(), license.digest(), license.firstLines(LICENSE_LINES)));
            text.append(license.id()).append('\t').append(license.digest()).append('\n');
        }
        Plan plan = new Plan(
                session.id().value(),
                "plan-" + Ids.randomHex(random, 8),
                SdkPackages.sha256(now.revision() + "\n" + text).substring(0, 16),
                List.copyOf(wanted.values()),
                licenses,
                clock.instant().plus(PLAN_LIFETIME));
        plans.values().removeIf(p -> p.expires().isBefore(clock.instant()));
        plans.put(plan.id(), plan);
        return new AndroidResults.PreparedView(
                plan.id(),
                plan.revision(),
                List.copyOf(downloads),
                List.copyOf(shown),
                0,
                sdk.root().toString(),
                PLAN_LIFETIME.toSeconds());
    }

    /** The licences sdkmanager has not had accepted: {@code --licenses}, asked to review them, every one declined. */
    private List<SdkManagerOutput.License> licenses() {
        SdkProcess.Result result = sdk.sdkmanager(
                List.of("--licenses"),
                LICENSES_DEADLINE,
                output -> Optional.of(output.stripTrailing().endsWith("Accept? (y/N):") ? "n" : "y"));
        return SdkManagerOutput.licenses(result.output());
    }

    /** The plan {@code id} this session prepared, while it is valid. */
    Optional<Plan> plan(Session session, String id) {
        Plan plan = plans.get(id);
        if (plan == null
                || !plan.owner().equals(session.id().value())
                || plan.expires().isBefore(clock.instant())) {
            return Optional.empty();
        }
        return Optional.of(plan);
    }
}
