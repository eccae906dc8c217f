package dev.lomicontrol.android.tools;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.lomicontrol.core.ErrorCode;
import dev.lomicontrol.core.LomiException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The uiautomator XML reader: no DTD or entity is ever read, the cap keeps whole subtrees' parents, uiautomator's own errors are told apart. */
class UiDumpTests {

    @TempDir
    Path temp;

    @Test
    void aDumpWithADoctypeIsRefusedAndNoEntityIsRead() throws Exception {
        Path secret = Files.writeString(temp.resolve("secret.txt"), "TOP-SECRET");
        String external = "<?xml version='1.0'?><!DOCTYPE hierarchy [<!ENTITY x SYSTEM \"" + secret.toUri()
                + "\">]><hierarchy rotation=\"0\"><node text=\"&x;\" bounds=\"[0,0][10,10]\"/></hierarchy>";
        String laughs = "<?xml version='1.0'?><!DOCTYPE h [<!ENTITY a \"aaaaaaaaaa\"><!ENTITY b \"&a;&a;&a;&a;&a;\">]>"
                + "<hierarchy><node text=\"&b;\"/></hierarchy>";
        for (String xml : new String[] {external, laughs}) {
            assertThatThrownBy(() -> UiDump.parse(xml.getBytes(StandardCharsets.UTF_8), 10))
                    .isInstanceOfSatisfying(LomiException.class, e -> {
                        assertThat(e.code()).isEqualTo(ErrorCode.UNSUPPORTED_CAPABILITY);
                        assertThat(e.getMessage()).doesNotContain("TOP-SECRET").contains("DOCTYPE");
                    });
        }
    }

    @Test
    void theCapKeepsTheFirstNodesInDocumentOrderWithTheirParents() {
        StringBuilder xml =
                new StringBuilder("<?xml version='1.0' ?><hierarchy rotation=\"1\"><node bounds=\"[0,0][2400,1080]\">");
        for (int i = 0; i < 600; i++) {
            xml.append("<node text=\"row ")
                    .append(i)
                    .append("\" bounds=\"[0,")
                    .append(i)
                    .append("][10,20]\"/>");
        }
        xml.append("</node></hierarchy>UI hierchary dumped to: /dev/tty");
        UiDump.Parsed parsed = UiDump.parse(xml.toString().getBytes(StandardCharsets.UTF_8), 500);
        assertThat(parsed.nodes()).hasSize(500);
        assertThat(parsed.truncated()).isTrue();
        assertThat(parsed.rotation()).isEqualTo(1);
        assertThat(parsed.display()).containsExactly(2400L, 1080L);
        assertThat(parsed.nodes().get(499).parent()).contains(0);
        assertThat(parsed.nodes().get(499).text()).isEqualTo("row 498");
    }

    @Test
    void uiautomatorsOwnErrorsAreToldApart() {
        assertThat(UiDump.nullRoot(
                        "ERROR: null root node returned by UiTestAutomationBridge.\n".getBytes(StandardCharsets.UTF_8)))
                .isTrue();
        assertThatThrownBy(
                        () -> UiDump.parse("ERROR: could not get idle state.\n".getBytes(StandardCharsets.UTF_8), 10))
                .isInstanceOfSatisfying(
                        LomiException.class,
                        e -> assertThat(e.getMessage()).contains("no UI hierarchy", "could not get idle state"));
    }
}
