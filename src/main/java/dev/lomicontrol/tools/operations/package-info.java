/**
 * The operation tool declarations: names, input and output records.
 */
@NullMarked
package dev.lomicontrol.tools.operations;

import org.jspecify.annotations.NullMarked;
