package dev.lomicontrol.mcp;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.lomicontrol.tools.ToolSelection;
import dev.lomicontrol.tools.Toolset;
import java.util.EnumSet;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import org.junit.jupiter.api.Test;

/** How the helper's command line and environment choose the tools it serves ({@link HelperOptions#parse}). */
class HelperOptionsTests {

    private static final Properties PROPERTIES = new Properties();

    static {
        PROPERTIES.setProperty("user.home", "/nonexistent-home");
    }

    private static ToolSelection selection(Map<String, String> environment, String... args) {
        return HelperOptions.parse(List.of(args), environment, PROPERTIES).selection();
    }

    private static ToolSelection selection(String... args) {
        return selection(Map.of(), args);
    }

    @Test
    void withoutOptionOrEnvironmentEveryToolIsServed() {
        assertThat(selection("--mcp").isAll()).isTrue();
        assertThat(selection("--mcp").arguments()).isEmpty();
    }

    @Test
    void toolsetsTakesACommaSeparatedListAndAlwaysAddsCore() {
        assertThat(selection("--toolsets", "git,files").toolsets())
                .containsExactlyInAnyOrder(Toolset.CORE, Toolset.GIT, Toolset.FILES);
        assertThat(selection("--toolsets", "git").readOnly()).isFalse();
    }

    @Test
    void toolsetsAlsoTakesItsValueAfterAnEqualsSign() {
        assertThat(selection("--toolsets=core,git").toolsets()).containsExactlyInAnyOrder(Toolset.CORE, Toolset.GIT);
    }

    @Test
    void spacesAroundTheNamesAreAllowed() {
        assertThat(selection("--toolsets", " core , git ").toolsets())
                .containsExactlyInAnyOrder(Toolset.CORE, Toolset.GIT);
    }

    @Test
    void allNamesEveryToolset() {
        assertThat(selection("--toolsets", "all").isAll()).isTrue();
        assertThat(selection("--toolsets", "git,all").toolsets()).isEqualTo(EnumSet.allOf(Toolset.class));
    }

    @Test
    void readOnlyKeepsTheToolsetsAndServesOnlyReadOnlyTools() {
        ToolSelection readOnly = selection("--read-only");
        assertThat(readOnly.readOnly()).isTrue();
        assertThat(readOnly.toolsets()).isEqualTo(EnumSet.allOf(Toolset.class));
        assertThat(readOnly.isAll()).isFalse();
        assertThat(selection("--toolsets", "git", "--read-only").toolsets())
                .containsExactlyInAnyOrder(Toolset.CORE, Toolset.GIT);
    }

    @Test
    void theEnvironmentChoosesWhenNoArgumentDoes() {
        ToolSelection fromEnvironment =
                selection(Map.of(ToolSelection.ENVIRONMENT, "core,git", ToolSelection.READ_ONLY_ENVIRONMENT, "1"));
        assertThat(fromEnvironment.toolsets()).containsExactlyInAnyOrder(Toolset.CORE, Toolset.GIT);
        assertThat(fromEnvironment.readOnly()).isTrue();
    }

    @Test
    void anArgumentWinsOverTheEnvironment() {
        assertThat(selection(Map.of(ToolSelection.ENVIRONMENT, "git"), "--toolsets", "files")
                        .toolsets())
                .containsExactlyInAnyOrder(Toolset.CORE, Toolset.FILES);
    }

    @Test
    void aBlankToolsetsVariableMeansEveryTool() {
        assertThat(selection(Map.of(ToolSelection.ENVIRONMENT, "  ")).isAll()).isTrue();
    }

    @Test
    void theReadOnlyVariableIsOffWhenEmptyZeroFalseOrNo() {
        for (String off : List.of("", " ", "0", "false", "No")) {
            assertThat(selection(Map.of(ToolSelection.READ_ONLY_ENVIRONMENT, off))
                            .readOnly())
                    .as("LOMI_READ_ONLY=%s", off)
                    .isFalse();
        }
        for (String on : List.of("1", "true", "yes")) {
            assertThat(selection(Map.of(ToolSelection.READ_ONLY_ENVIRONMENT, on))
                            .readOnly())
                    .as("LOMI_READ_ONLY=%s", on)
                    .isTrue();
        }
    }

    @Test
    void toolsetsWithoutAValueIsAUsageError() {
        assertThatThrownBy(() -> selection("--toolsets"))
                .isInstanceOf(HelperOptions.UsageException.class)
                .hasMessageContaining("--toolsets needs a value")
                .hasMessageContaining("usage: " + HelperOptions.USAGE);
    }

    @Test
    void anUnknownOrEmptyToolsetIsAUsageErrorNamingTheValidOnes() {
        assertThatThrownBy(() -> selection("--toolsets", "core,gti"))
                .isInstanceOf(HelperOptions.UsageException.class)
                .hasMessageContaining("unknown toolset 'gti'")
                .hasMessageContaining(Toolset.names());
        assertThatThrownBy(() -> selection("--toolsets="))
                .isInstanceOf(HelperOptions.UsageException.class)
                .hasMessageContaining("unknown toolset ''");
        assertThatThrownBy(() -> selection("--toolsets", "Git"))
                .as("names are lower case")
                .isInstanceOf(HelperOptions.UsageException.class);
        assertThatThrownBy(() -> selection(Map.of(ToolSelection.ENVIRONMENT, "core,gti")))
                .isInstanceOf(HelperOptions.UsageException.class)
                .hasMessageContaining("unknown toolset 'gti'");
    }

    @Test
    void anUnknownArgumentIsAUsageError() {
        assertThatThrownBy(() -> selection("--bogus"))
                .isInstanceOf(HelperOptions.UsageException.class)
                .hasMessageContaining("unknown argument --bogus");
        assertThatThrownBy(() -> selection("--read-only=1"))
                .as("--read-only takes no value")
                .isInstanceOf(HelperOptions.UsageException.class);
    }
}
