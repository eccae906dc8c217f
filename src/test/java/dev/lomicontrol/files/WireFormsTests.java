package dev.lomicontrol.files;

import static dev.lomicontrol.files.Fixture.code;
import static org.assertj.core.api.Assertions.assertThat;

import dev.lomicontrol.core.ErrorCode;
import org.junit.jupiter.api.Test;

class WireFormsTests {

    @Test
    void enumsHaveTheirWireNamesAndParseOnlyThose() {
        assertThat(EntryKind.FILE.wire()).isEqualTo("file");
        assertThat(EntryKind.fromWire("directory")).isEqualTo(EntryKind.DIRECTORY);
        assertThat(TextEncoding.UTF_16LE.wire()).isEqualTo("utf-16le");
        assertThat(TextEncoding.fromWire("utf-8-bom")).isEqualTo(TextEncoding.UTF_8_BOM);
        assertThat(TextEncoding.fromWire("utf-8")).isEqualTo(TextEncoding.UTF_8);
        assertThat(LineEndings.fromWire("crlf")).isEqualTo(LineEndings.CRLF);
        assertThat(LineEndings.NONE.wire()).isEqualTo("none");
        assertThat(code(() -> EntryKind.fromWire("FILE"))).isEqualTo(ErrorCode.INVALID_ARGUMENT);
        assertThat(code(() -> TextEncoding.fromWire("latin-1"))).isEqualTo(ErrorCode.INVALID_ARGUMENT);
        assertThat(code(() -> LineEndings.fromWire(null))).isEqualTo(ErrorCode.INVALID_ARGUMENT);
    }
}
