// Every error is listed as file:line:col (file relative to the project) with the source line,
// the summary is one line, there is no stack trace, and nothing was generated.
def full = new File(basedir, 'build.log').text
def hook = full.indexOf('Running post-build script')
def log = hook < 0 ? full : full.substring(0, hook)

assert log =~ /(?m)^\[ERROR\] src\/main\/prm\/acme\/bad_type\.prm:5:18: error: .*no_such_struct.*$/
assert log =~ /(?m)^\[ERROR\]     0x04 other : no_such_struct;$/
assert log =~ /(?m)^\[ERROR\] src\/main\/prm\/acme\/bad_overlap\.prm:5:18: error: .*overlaps.*$/
assert log =~ /(?m)^\[ERROR\] src\/main\/prm\/acme\/bad_overlap\.prm:4:18: note: .*$/
assert log.contains('on project spec-errors: 2 errors in prm specs -> [Help 1]')
assert !(log =~ /(?m)^\s*at [a-z][\w.$]*\(/) : 'stack trace in the log'
assert !(log =~ /[A-Za-z]+(Exception|Error): /) : 'exception in the log'
assert !new File(basedir, 'target/generated-sources/prm').exists()
assert !new File(basedir, 'target/prmkit-maven-plugin/generate-default/state.txt').exists()
return true
