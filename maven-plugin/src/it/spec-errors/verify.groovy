// Every error is listed as file:line:col (file relative to the project), the summary is one
// line, there is no stack trace, and nothing was generated.
def log = new File(basedir, 'build.log').text
assert log =~ /(?m)^\[ERROR\] src\/main\/prm\/acme\/bad_type\.prm:5:\d+: error: .+/
assert log =~ /(?m)^\[ERROR\] src\/main\/prm\/acme\/bad_overlap\.prm:[45]:\d+: error: .+/
assert log =~ /\d+ errors in prm specs/
assert !log.contains('\tat ') : 'stack trace in the log'
assert !log.contains('Exception') : 'exception in the log'
assert !new File(basedir, 'target/generated-sources/prm').exists()
return true
