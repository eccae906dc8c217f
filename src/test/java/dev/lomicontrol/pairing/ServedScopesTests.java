package dev.lomicontrol.pairing;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.lomicontrol.catalog.ToolCatalog;
import dev.lomicontrol.core.ErrorCode;
import dev.lomicontrol.core.LomiException;
import dev.lomicontrol.tools.ToolSpec;
import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.Test;

/**
 * Every declared tool is served, so every tool's scope is in the full grant (YOLO, a flagless
 * approval) — the Android scopes, named and chained as the reference names them, included — and the
 * only scope a grant may hold outside it is {@link Scopes#TERMINAL_UNSANDBOXED}.
 */
class ServedScopesTests {

    static final Set<String> BROWSER = Set.of(
            "browser.navigate",
            "browser.read",
            "browser.interact",
            "browser.capture_composite",
            "browser.upload",
            "browser.download");

    static final Set<String> ANDROID = Set.of(
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

    static final Set<String> CHAT =
            Set.of("chat.read", "chat.open", "chat.create", "chat.draft", "chat.send", "chat.stop", "chat.export");

    @Test
    void theAndroidBrowserAndChatScopesAreInTheFullGrantWithEveryAndroidDeviceAndPackage() {
        assertThat(Scopes.all()).containsAll(ANDROID).containsAll(BROWSER).containsAll(CHAT);
        for (String scope : ANDROID) {
            assertThat(Grant.full().allows(scope)).as(scope).isTrue();
        }
        assertThat(Grant.full().android()).isEqualTo(AndroidGrant.EVERYTHING);
        assertThat(Scopes.known())
                .containsAll(Scopes.all())
                .contains(Scopes.TERMINAL_UNSANDBOXED)
                .hasSize(Scopes.all().size() + 1);
    }

    @Test
    void everyToolsScopeIsInTheFullGrant() {
        for (ToolSpec<?> spec : ToolCatalog.standard().all()) {
            if (spec.scope().isNone()) {
                continue;
            }
            assertThat(Scopes.all()).as(spec.name()).contains(spec.scope().name());
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
