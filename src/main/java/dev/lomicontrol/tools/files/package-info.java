/**
 * The file tool declarations: names, input and output records.
 */
@NullMarked
package dev.lomicontrol.tools.files;

import org.jspecify.annotations.NullMarked;
