-- Commands keep the first 10 KiB of their output (issue 30; JumpServer keeps 1,024 characters).
alter table commands alter column output type varchar(10240);
