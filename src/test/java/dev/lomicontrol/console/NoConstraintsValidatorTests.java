package dev.lomicontrol.console;

import static org.assertj.core.api.Assertions.assertThat;

import jakarta.validation.Constraint;
import jakarta.validation.Valid;
import jakarta.validation.Validator;
import java.lang.annotation.Annotation;
import java.lang.reflect.AnnotatedElement;
import java.lang.reflect.Method;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.context.ApplicationContext;
import org.springframework.shell.core.command.annotation.Command;

/**
 * The console's validator answers "no violations" for everything, which is only true while no
 * command declares a Bean Validation constraint: this test keeps it true, and checks that Spring
 * Shell is given this validator (so it never builds Hibernate Validator's).
 */
class NoConstraintsValidatorTests extends ConsoleSliceSupport {

    @Autowired
    ApplicationContext context;

    @Test
    void theCommandsAreValidatedByTheConsolesValidator() {
        assertThat(context.getBeansOfType(Validator.class).values())
                .singleElement()
                .isInstanceOf(NoConstraintsValidator.class);
    }

    @Test
    void noConsoleCommandDeclaresAConstraint() {
        List<Method> commands = new ArrayList<>();
        for (Object bean : context.getBeansWithAnnotation(org.springframework.stereotype.Component.class)
                .values()) {
            Class<?> type = org.springframework.aop.support.AopUtils.getTargetClass(bean);
            if (!type.getPackageName().equals(ConsoleConfiguration.class.getPackageName())) {
                continue;
            }
            Arrays.stream(type.getDeclaredMethods())
                    .filter(method -> method.isAnnotationPresent(Command.class))
                    .forEach(commands::add);
        }
        assertThat(commands).as("command methods found").hasSizeGreaterThan(30);
        for (Method method : commands) {
            Stream<AnnotatedElement> elements =
                    Stream.concat(Stream.of(method, method.getDeclaringClass()), Arrays.stream(method.getParameters()));
            elements.forEach(element -> assertThat(
                            Arrays.stream(element.getAnnotations()).filter(NoConstraintsValidatorTests::isConstraint))
                    .as("Bean Validation annotations on %s (NoConstraintsValidator would ignore them)", element)
                    .isEmpty());
        }
    }

    @Test
    void everyCheckFindsNoViolation() throws NoSuchMethodException {
        NoConstraintsValidator validator = new NoConstraintsValidator();
        Method method = String.class.getMethod("substring", int.class);
        assertThat(validator.validate("text")).isEmpty();
        assertThat(validator.forExecutables().validateParameters("text", method, new Object[] {-1}))
                .isEmpty();
        assertThat(validator.unwrap(NoConstraintsValidator.class)).isSameAs(validator);
    }

    private static boolean isConstraint(Annotation annotation) {
        return annotation instanceof Valid || annotation.annotationType().isAnnotationPresent(Constraint.class);
    }
}
