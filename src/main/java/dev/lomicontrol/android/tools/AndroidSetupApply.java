package dev.lomicontrol.android.tools;

import dev.lomicontrol.android.SdkManagerOutput;
import dev.lomicontrol.android.SdkPackages;
import dev.lomicontrol.android.SdkProcess;
import dev.lomicontrol.android.api.AndroidInputs.PackageSelection;
import dev.lomicontrol.android.api.AndroidResults;
import dev.lomicontrol.android.api.AndroidSpecs;
import dev.lomicontrol.core.ErrorCode;
import dev.lomicontrol.core.LomiException;
import dev.lomicontrol.operations.OperationRunner;
import dev.lomicontrol.operations.WorkspaceAccess;
import dev.lomicontrol.pairing.Session;
import dev.lomicontrol.tools.Encoder;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.OptionalLong;
import java.util.Set;
import java.util.stream.Collectors;
import tools.jackson.databind.node.ArrayNode;
import tools.jackson.databind.node.JsonNodeFactory;
import tools.jackson.databind.node.ObjectNode;

/**
 * lomi_android_setup_apply: a plan lomi_android_setup_plan prepared for this session (valid 30 min;
 * another {@code planRevision}: REVISION_CONFLICT) waits in {@code awaiting_user} showing its
 * packages and each licence's id, SHA-256 and first lines. Approved, {@code sdkmanager --install
 * <ids>} runs argv-only in its own process group within {@link #DEADLINE}; every licence question it
 * asks is answered {@code y} only when the licence it just showed has a digest the admin approved,
 * else {@code n} (sdkmanager then installs nothing it needed it for) — licences are never accepted
 * by the broker on its own, and sdkmanager writes its own {@code licenses/} files from that answer.
 * Rejected, nothing runs (SCOPE_DENIED).
 */
final class AndroidSetupApply {

    /** The reference's runtime bound for an SDK install. */
    static final Duration DEADLINE = Duration.ofHours(2);

    private final WorkspaceAccess access;
    private final OperationRunner runner;
    private final AndroidSdk sdk;
    private final AndroidSetupPlans plans;

    AndroidSetupApply(WorkspaceAccess access, OperationRunner runner, AndroidSdk sdk, AndroidSetupPlans plans) {
        this.access = access;
        this.runner = runner;
        this.sdk = sdk;
        this.plans = plans;
    }

    Object apply(Session session, AndroidSpecs.SetupApplyInput in) {
        WorkspaceAccess.Listed listed = access.resolve(session, in.workspaceId());
        AndroidSetupPlans.Plan plan = plans.plan(session, in.planId().value())
                .orElseThrow(() -> new LomiException(
                        ErrorCode.TARGET_NOT_FOUND,
                        "no valid plan " + in.planId() + " of this session (plans live 30 min); prepare one"
                                + " (lomi_android_setup_plan action prepare)"));
        if (!plan.revision().equals(in.planRevision().value())) {
            throw new LomiException(
                    ErrorCode.REVISION_CONFLICT,
                    "plan " + plan.id() + " is at revision " + plan.revision() + ", not " + in.planRevision());
        }
        List<String> ids = plan.packages().stream().map(PackageSelection::id).toList();
        Set<String> approved =
                plan.licenses().stream().map(SdkManagerOutput.License::digest).collect(Collectors.toUnmodifiableSet());
        ObjectNode shown = JsonNodeFactory.instance.objectNode();
        shown.put("action", "install Android SDK packages with sdkmanager");
        shown.put("sdk", sdk.root().toString());
        ArrayNode packages = shown.putArray("packages");
        plan.packages().forEach(p -> packages.addObject().put("id", p.id()).put("revision", p.revision()));
        ArrayNode licenses = shown.putArray("licenses");
        for (SdkManagerOutput.License license : plan.licenses()) {
            licenses.addObject()
                    .put("id", license.id())
                    .put("sha256", license.digest())
                    .put("text", license.firstLines(AndroidSetupPlans.LICENSE_LINES));
        }
        shown.put("approving", "accepts exactly these licence texts (by SHA-256) for this install");
        shown.put("client", session.clientLabel());
        OperationRunner.Request request = OperationRunner.Request.of(
                session, AndroidSpecs.SETUP_APPLY, in, listed, "sdk:" + plan.id(), OptionalLong.empty());
        return runner.afterApprovalInBackground(
                request,
                () -> {},
                () -> "install " + String.join(", ", ids) + " into the Android SDK, accepting "
                        + plan.licenses().size() + " licence(s) shown by digest, for " + session.clientLabel(),
                () -> shown,
                operation -> {
                    session.requireAlive();
                    List<String> args = new ArrayList<>();
                    args.add("--install");
                    args.addAll(ids);
                    SdkProcess.Result result = sdk.sdkmanager(args, DEADLINE, output -> answer(output, approved));
                    if (result.exit() != 0) {
                        throw new LomiException(
                                ErrorCode.OUTCOME_UNKNOWN,
                                "sdkmanager --install failed (" + AndroidSdk.tail(result)
                                        + "); read the inventory for what is installed now");
                    }
                    return Encoder.encode(new AndroidResults.Management(
                            in.workspaceId(),
                            "native-" + dev.lomicontrol.core.Ids.randomHex(new java.security.SecureRandom(), 8),
                            Optional.empty(),
                            Optional.empty(),
                            Optional.of(SdkPackages.revision(SdkPackages.installed(sdk.root())))));
                });
    }

    /** {@code y} for a licence whose shown text the admin approved by digest, {@code n} for any other question. */
    static Optional<String> answer(String output, Set<String> approved) {
        if (!output.stripTrailing().endsWith("Accept? (y/N):")) {
            return Optional.of("n");
        }
        return Optional.of(SdkManagerOutput.lastLicense(output)
                .filter(license -> approved.contains(license.digest()))
                .map(license -> "y")
                .orElse("n"));
    }
}
