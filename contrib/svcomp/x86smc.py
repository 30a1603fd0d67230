# BenchExec tool-info module for x86smc (docs/SVCOMP.md).  Put this
# directory on PYTHONPATH and name the tool "x86smc" in the benchmark
# definition (<benchmark tool="x86smc" ...>); the executable it runs is
# x86smc-svcomp, next to this file or on PATH.
import benchexec.result as result
import benchexec.tools.template


class Tool(benchexec.tools.template.BaseTool2):
    """x86smc, a stateless model checker of x86-64 pthread binaries, on
    SV-COMP tasks: x86smc-svcomp compiles the task and runs
    x86smc --property, which prints "SV-COMP answer: true",
    "SV-COMP answer: false(PROPERTY)" or "SV-COMP answer: unknown"."""

    def executable(self, tool_locator):
        return tool_locator.find_executable("x86smc-svcomp")

    def name(self):
        return "x86smc"

    def version(self, executable):
        return self._version_from_tool(executable, line_prefix="x86smc ")

    def cmdline(self, executable, options, task, rlimits):
        cmd = [executable, "--witness", "witness.yml"] + list(options)
        if task.property_file:
            cmd.append(task.property_file)
        cmd.append(task.single_input_file)
        if rlimits.cputime:
            cmd += ["--timeout", str(max(1, rlimits.cputime - 5))]
        return cmd

    def determine_result(self, run):
        for line in reversed(run.output):
            if line.startswith("SV-COMP answer: "):
                answer = line[len("SV-COMP answer: "):].strip()
                if answer == "true":
                    return result.RESULT_TRUE_PROP
                if answer == "false(unreach-call)":
                    return result.RESULT_FALSE_REACH
                if answer.startswith("false("):
                    return answer  # "false(no-data-race)": BenchExec's form
                return result.RESULT_UNKNOWN
        if run.exit_code.value == 2:
            return result.RESULT_ERROR + "(x86smc could not run the task)"
        return result.RESULT_UNKNOWN
