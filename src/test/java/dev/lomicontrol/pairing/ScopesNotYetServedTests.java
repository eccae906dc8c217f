package dev.lomicontrol.pairing;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.lomicontrol.catalog.ToolCatalog;
import dev.lomicontrol.core.ErrorCode;
import dev.lomicontrol.core.LomiException;
import dev.lomicontrol.tools.HostNeed;
import dev.lomicontrol.tools.ToolSpec;
import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.Test;

/**
 * The scopes of the Android tools (answered HOST_UNQUALIFIED on this host) are
 * named as the reference names them and a grant may hold them when an admin lists them, but no
 * default grant — neither the full grant of YOLO or a flagless approval nor {@link Scopes#all()} —
 * contains any of them until their tools are implemented.
 */
class ScopesNotYetServedTests {

    static final Set<String> BROWSER = Set.of(
            "browser.navigate",
            "browser.read",
            "browser.interact",
            "browser.capture_composite",
            "browser.upload",
            "browser.download");

    static final Set<String> REFERENCE = Set.of(
            "android.read",
            "android.control",
            "android.setup",
            "android.manage",
            "android.launch",
            "android.logs",
            "android.interact",
            "android.observe",
            "android.capture",
            "android.install");

    /** Served since issue 16: in the full grant (every send still waits for the admin's approval). */
    static final Set<String> CHAT =
            Set.of("chat.read", "chat.open", "chat.create", "chat.draft", "chat.send", "chat.stop", "chat.export");

    @Test
    void theChatScopesAreServedAndInTheFullGrant() {
        assertThat(Scopes.all()).containsAll(CHAT);
        assertThat(Scopes.notYetServed()).doesNotContainAnyElementsOf(CHAT);
    }

    @Test
    void theyAreTheReferenceNamesAndInNoDefaultGrant() {
        assertThat(Scopes.notYetServed()).containsExactlyInAnyOrderElementsOf(REFERENCE);
        assertThat(Scopes.all()).doesNotContainAnyElementsOf(REFERENCE);
        assertThat(Grant.full().scopes()).doesNotContainAnyElementsOf(REFERENCE);
        assertThat(Scopes.known())
                .containsAll(Scopes.all())
                .containsAll(REFERENCE)
                .contains(Scopes.TERMINAL_UNSANDBOXED)
                .hasSize(Scopes.all().size() + REFERENCE.size() + 1);
        for (String scope : REFERENCE) {
            assertThat(Grant.full().allows(scope)).as(scope).isFalse();
        }
        assertThat(Scopes.all())
                .as("the browser tools are served: their scopes are in the full grant")
                .containsAll(BROWSER);
    }

    @Test
    void everyToolThisHostCannotServeNamesOneOfThemAndEveryServedToolADefaultScope() {
        for (ToolSpec<?> spec : ToolCatalog.standard().all()) {
            if (spec.host() != HostNeed.NONE && spec.host() != HostNeed.BROWSER) {
                assertThat(Scopes.notYetServed())
                        .as(spec.name())
                        .contains(spec.scope().name());
            } else {
                assertThat(Scopes.notYetServed())
                        .as(spec.name())
                        .doesNotContain(spec.scope().name());
            }
        }
    }

    @Test
    void anAdminMayListThemWithTheReferenceDependencies() {
        assertThat(Scopes.validate(List.of(
                        "workspace.read", "chat.read", "chat.open", "chat.create", "panel.create", "panel.focus")))
                .contains("chat.create");
        assertThat(Scopes.validate(List.of("workspace.read", "android.read", "android.control", "android.interact")))
                .contains("android.interact");
        assertThat(Scopes.validate(List.of("workspace.read", "browser.navigate", "browser.read")))
                .contains("browser.navigate");

        assertThatThrownBy(() -> Scopes.validate(List.of("workspace.read", "android.interact", "android.read")))
                .isInstanceOfSatisfying(LomiException.class, refused -> {
                    assertThat(refused.code()).isEqualTo(ErrorCode.INVALID_ARGUMENT);
                    assertThat(refused.getMessage()).contains("android.interact needs android.control");
                });
        assertThatThrownBy(() -> Scopes.validate(List.of("workspace.read", "chat.open", "chat.read")))
                .hasMessageContaining("chat.open needs panel.create")
                .hasMessageContaining("chat.open needs panel.focus");
        assertThatThrownBy(() -> Scopes.validate(List.of("workspace.read", "browser.everything")))
                .hasMessageContaining("unknown scope browser.everything");
    }
}
