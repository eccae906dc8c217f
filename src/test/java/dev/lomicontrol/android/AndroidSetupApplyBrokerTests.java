package dev.lomicontrol.android;

import static dev.lomicontrol.broker.BrokerCallsFixture.json;
import static org.assertj.core.api.Assertions.assertThat;

import dev.lomicontrol.broker.BrokerCallsFixture;
import dev.lomicontrol.core.OperationId;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.JsonNode;

/**
 * lomi_android_setup_apply through the broker's dispatch against a temporary SDK whose sdkmanager is
 * a stand-in script ({@link StandInSdk}): the admin's decision on the exact plan, and our answers to
 * sdkmanager's licence questions (yes only for a licence text approved by digest) — the bookkeeping,
 * not Google's downloads.
 */
class AndroidSetupApplyBrokerTests extends StandInSdkBrokerTest {

    static final String LICENSE = "Terms and Conditions\n\nThis is the Android SDK License Agreement";

    @BeforeEach
    void aCatalogAndALicence() throws Exception {
        sdk.catalog("platforms;android-34|3|Android SDK Platform 34");
        sdk.offers("android-sdk-license", LICENSE);
    }

    JsonNode setup(Object... action) {
        return broker.ok(
                        calls.session,
                        "lomi_android_setup_plan",
                        json(
                                "workspaceId",
                                calls.workspace(),
                                "action",
                                BrokerCallsFixture.JSON.readTree(json(action))))
                .path("setup");
    }

    JsonNode prepared() {
        String revision = setup("type", "catalog", "offset", 0, "limit", 32)
                .path("catalogRevision")
                .asString();
        return setup(
                "type",
                "prepare",
                "catalogRevision",
                revision,
                "packages",
                BrokerCallsFixture.JSON.readTree("[{\"id\":\"platforms;android-34\",\"revision\":\"3\"}]"),
                "prepareTools",
                false);
    }

    JsonNode applied(JsonNode plan, String key, boolean approve) {
        JsonNode asked = broker.ok(
                calls.session,
                "lomi_android_setup_apply",
                json(
                        "workspaceId", calls.workspace(),
                        "planId", plan.path("planId").asString(),
                        "planRevision", plan.path("revision").asString(),
                        "retryEpoch", calls.epoch.value(),
                        "requestKey", key));
        assertThat(asked.path("state").asString()).as("%s", asked).isEqualTo("awaiting_user");
        broker.decisions.decide(new OperationId(asked.path("operationId").asString()), approve);
        return broker.settled(calls.session, asked.path("operationId").asString(), Duration.ofSeconds(30));
    }

    @Test
    void anApprovedPlanInstallsWithTheShownLicenceAcceptedARejectedOneInstallsNothing() throws Exception {
        JsonNode plan = prepared();

        JsonNode rejected = applied(plan, "a-0", false);
        assertThat(rejected.path("errorCode").asString()).as("%s", rejected).isEqualTo("SCOPE_DENIED");
        assertThat(sdk.argv()).noneMatch(line -> line.contains("--install"));
        assertThat(sdk.licenseFiles()).isEmpty();

        JsonNode done = applied(plan, "a-1", true);

        assertThat(done.path("state").asString()).as("%s", done).isEqualTo("succeeded");
        assertThat(sdk.argv()).last().isEqualTo("sdkmanager --install platforms;android-34 --sdk_root=" + sdk.sdk);
        assertThat(sdk.licenseFiles()).containsExactly("android-sdk-license");
        assertThat(Files.readString(sdk.sdk.resolve("licenses/android-sdk-license")))
                .as("the SHA-1 sdkmanager keeps for an accepted licence")
                .contains(sha1(LICENSE));
        JsonNode inventory = setup("type", "inventory");
        assertThat(inventory.path("installed").toString()).contains("platforms;android-34");
    }

    @Test
    void theAdminsApprovalReturnsAtOnceWhileSdkmanagerStillInstalls() throws Exception {
        JsonNode plan = prepared();
        Path gate = sdk.gate();
        JsonNode asked = broker.ok(
                calls.session,
                "lomi_android_setup_apply",
                json(
                        "workspaceId", calls.workspace(),
                        "planId", plan.path("planId").asString(),
                        "planRevision", plan.path("revision").asString(),
                        "retryEpoch", calls.epoch.value(),
                        "requestKey", "a-gated"));
        OperationId id = new OperationId(asked.path("operationId").asString());

        java.util.concurrent.CompletableFuture<Void> decided =
                java.util.concurrent.CompletableFuture.runAsync(() -> broker.decisions.decide(id, true));
        try {
            decided.get(10, java.util.concurrent.TimeUnit.SECONDS);
        } catch (java.util.concurrent.TimeoutException e) {
            Files.writeString(gate, "go\n");
            throw new AssertionError("the admin's decision waited for sdkmanager --install to end", e);
        }
        assertThat(broker.ok(calls.session, "lomi_operation_get", json("operationId", id.value()))
                        .path("state")
                        .asString())
                .as("the decision returned while sdkmanager --install waits at its gate")
                .isEqualTo("running");

        Files.writeString(gate, "go\n");
        JsonNode done = broker.settled(calls.session, id.value(), Duration.ofSeconds(30));
        assertThat(done.path("state").asString()).as("%s", done).isEqualTo("succeeded");
    }

    @Test
    void aLicenceTheAdminWasNotShownIsDeclinedAndNothingIsInstalled() throws Exception {
        JsonNode plan = prepared();
        sdk.offers("android-sdk-preview-license", "Preview terms the admin never saw");

        JsonNode done = applied(plan, "a-2", true);

        assertThat(done.path("state").asString()).as("%s", done).isNotEqualTo("succeeded");
        assertThat(sdk.licenseFiles()).doesNotContain("android-sdk-preview-license");
        assertThat(Files.exists(sdk.sdk.resolve("platforms/android-34/package.xml")))
                .isFalse();
    }

    @Test
    void anotherRevisionOrAnotherSessionsPlanIsRefusedBeforeTheAdminIsAsked() throws Exception {
        JsonNode plan = prepared();
        String wrongRevision = json(
                "workspaceId", calls.workspace(),
                "planId", plan.path("planId").asString(),
                "planRevision", "0000000000000000",
                "retryEpoch", calls.epoch.value(),
                "requestKey", "a-3");
        assertThat(broker.refused(calls.session, "lomi_android_setup_apply", wrongRevision))
                .isEqualTo(dev.lomicontrol.core.ErrorCode.REVISION_CONFLICT);

        AndroidCalls other = new AndroidCalls(broker, "p2");
        String foreign = json(
                "workspaceId", other.workspace(),
                "planId", plan.path("planId").asString(),
                "planRevision", plan.path("revision").asString(),
                "retryEpoch", other.epoch.value(),
                "requestKey", "a-4");
        assertThat(broker.refused(other.session, "lomi_android_setup_apply", foreign))
                .isEqualTo(dev.lomicontrol.core.ErrorCode.TARGET_NOT_FOUND);
        assertThat(sdk.argv()).noneMatch(line -> line.contains("--install"));
    }

    static String sha1(String text) throws Exception {
        return java.util.HexFormat.of()
                .formatHex(java.security.MessageDigest.getInstance("SHA-1")
                        .digest(text.getBytes(java.nio.charset.StandardCharsets.UTF_8)));
    }
}
