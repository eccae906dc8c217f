package dev.lomicontrol.android;

import static dev.lomicontrol.broker.BrokerCallsFixture.json;
import static org.assertj.core.api.Assertions.assertThat;

import dev.lomicontrol.broker.BrokerCallsFixture;
import dev.lomicontrol.core.ErrorCode;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.JsonNode;

/**
 * lomi_android_setup_plan through the broker's dispatch against a temporary SDK whose sdkmanager is
 * a stand-in script ({@link StandInSdk}): our reading of the SDK's own package files, our paging and
 * revision of sdkmanager's listing, and our licence digests — the bookkeeping, not Google's
 * repository.
 */
class AndroidSetupPlanBrokerTests extends StandInSdkBrokerTest {

    JsonNode plan(JsonNode action) {
        return broker.ok(
                        calls.session,
                        "lomi_android_setup_plan",
                        json("workspaceId", calls.workspace(), "action", action))
                .path("setup");
    }

    ErrorCode refused(JsonNode action) {
        return broker.refused(
                calls.session, "lomi_android_setup_plan", json("workspaceId", calls.workspace(), "action", action));
    }

    static JsonNode action(Object... pairs) {
        return BrokerCallsFixture.JSON.readTree(json(pairs));
    }

    @Test
    void theInventoryIsReadFromTheSdksOwnFilesWithoutRunningSdkmanager() throws Exception {
        sdk.installed("platforms;android-34", "3");
        sdk.installed("platform-tools", "35");

        JsonNode inventory = plan(action("type", "inventory"));

        List<String> installed = new ArrayList<>();
        inventory
                .path("installed")
                .forEach(p -> installed.add(
                        p.path("id").asString() + "@" + p.path("revision").asString()));
        assertThat(installed).containsExactly("platform-tools@35", "platforms;android-34@3");
        assertThat(inventory.path("hostQualified").asBoolean())
                .as("%s", inventory)
                .isTrue();
        assertThat(inventory.path("devicesRevision").asString()).isNotBlank();
        assertThat(sdk.argv()).as("offline: no sdkmanager run").isEmpty();
    }

    @Test
    void anSdkWithoutItsCommandLineToolsIsNamedAsWhatIsMissing() throws Exception {
        java.nio.file.Files.delete(sdk.sdk.resolve("cmdline-tools/latest/bin/sdkmanager"));
        Path bin = java.nio.file.Files.createDirectories(temp.resolve("empty-bin"));
        dev.lomicontrol.tools.HostProbe probe = new dev.lomicontrol.tools.HostProbe(
                java.util.Map.of("ANDROID_HOME", sdk.sdk.toString(), "PATH", bin.toString()),
                java.util.Optional.empty(),
                temp,
                temp.resolve("kvm"));
        broker.host = () -> probe;

        JsonNode envelope = broker.call(
                calls.session,
                "lomi_android_setup_plan",
                json("workspaceId", calls.workspace(), "action", action("type", "inventory")));

        assertThat(envelope.path("code").asString()).as("%s", envelope).isEqualTo("HOST_UNQUALIFIED");
        assertThat(envelope.path("message").asString()).contains("sdkmanager");
    }

    @Test
    void theCatalogIsPagedUnderOneRevisionAndAChangedCatalogIsAConflict() throws Exception {
        sdk.catalog(
                "emulator|35.1.4|Android Emulator",
                "platform-tools|35.0.2|Android SDK Platform-Tools",
                "platforms;android-34|3|Android SDK Platform 34",
                "system-images;android-34;google_apis;x86_64|14|Google APIs Intel x86_64 Atom System Image",
                "cmdline-tools;latest|16.0|Android SDK Command-line Tools (latest)");

        JsonNode first = plan(action("type", "catalog", "offset", 0, "limit", 2));
        String revision = first.path("catalogRevision").asString();
        assertThat(first.path("packages")).hasSize(2);
        assertThat(first.at("/packages/0/id").asString()).isEqualTo("emulator");
        assertThat(first.path("nextOffset").asLong()).isEqualTo(2);
        JsonNode last = plan(action("type", "catalog", "offset", 4, "limit", 2, "expectedCatalogRevision", revision));
        assertThat(last.path("packages")).hasSize(1);
        assertThat(last.at("/packages/0/revision").asString()).isEqualTo("16.0");
        assertThat(last.path("nextOffset").isMissingNode()
                        || last.path("nextOffset").isNull())
                .isTrue();
        assertThat(sdk.argv()).as("listed once, then paged from what it listed").hasSize(1);
        assertThat(sdk.argv().get(0)).isEqualTo("sdkmanager --list --sdk_root=" + sdk.sdk);

        sdk.catalog("emulator|35.2.0|Android Emulator");
        plan(action("type", "catalog", "refresh", true, "offset", 0, "limit", 32));
        assertThat(refused(action("type", "catalog", "offset", 2, "limit", 2, "expectedCatalogRevision", revision)))
                .isEqualTo(ErrorCode.REVISION_CONFLICT);
    }

    @Test
    void aPlanShowsEachLicenceByDigestAndAcceptsNone() throws Exception {
        sdk.catalog("platforms;android-34|3|Android SDK Platform 34", "emulator|35.1.4|Android Emulator");
        String text = "Terms and Conditions\n\nThis is the Android Software Development Kit License Agreement\n"
                + "1. Introduction\n1.1 The Android SDK is licensed to you";
        sdk.offers("android-sdk-license", text);
        String revision = plan(action("type", "catalog", "offset", 0, "limit", 32))
                .path("catalogRevision")
                .asString();

        JsonNode prepared = plan(action(
                "type",
                "prepare",
                "catalogRevision",
                revision,
                "packages",
                BrokerCallsFixture.JSON.readTree("[{\"id\":\"platforms;android-34\",\"revision\":\"3\"}]"),
                "prepareTools",
                false));

        assertThat(prepared.path("type").asString()).isEqualTo("prepared");
        assertThat(prepared.path("downloads")).hasSize(1);
        assertThat(prepared.at("/licenses/0/id").asString()).isEqualTo("android-sdk-license");
        assertThat(prepared.at("/licenses/0/digest").asString())
                .isEqualTo(dev.lomicontrol.android.SdkPackages.sha256(text));
        assertThat(prepared.at("/licenses/0/text").asString()).startsWith("Terms and Conditions");
        assertThat(prepared.path("expiresInSeconds").asLong()).isEqualTo(1800);
        assertThat(sdk.licenseFiles()).as("showing a licence accepts nothing").isEmpty();
        assertThat(sdk.argv()).contains("sdkmanager --licenses --sdk_root=" + sdk.sdk);

        assertThat(refused(action(
                        "type",
                        "prepare",
                        "catalogRevision",
                        "0000000000000000",
                        "packages",
                        BrokerCallsFixture.JSON.readTree("[{\"id\":\"emulator\",\"revision\":\"35.1.4\"}]"),
                        "prepareTools",
                        false)))
                .as("another catalog revision")
                .isEqualTo(ErrorCode.REVISION_CONFLICT);
    }
}
